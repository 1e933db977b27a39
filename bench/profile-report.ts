/**
 * Top-functions table from a V8 CPU profile (`node --cpu-prof`): self time per function and per
 * area (kafkajs, pg, undici, pino/logging, JSON, crypto, our libs/* by lib, node internals,
 * GC, idle, ...). Samples can be limited to a window of the profile's monotonic clock (µs), so
 * start-up and shutdown stay out of the figures.
 *
 *   node dist/bench/profile-report.js <file.cpuprofile> [--from <µs>] [--to <µs>] [--top 20]
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Row {
  readonly name: string;
  readonly area: string;
  readonly ms: number;
  readonly share: number;
}
export interface ProfileSummary {
  /** Sampled time in the window, idle included (ms). */
  readonly totalMs: number;
  /** The same without "(idle)": time the main thread was busy (ms). */
  readonly busyMs: number;
  readonly samples: number;
  readonly functions: readonly Row[];
  readonly areas: readonly Row[];
  /**
   * The same time, each sample charged to the nearest library or package on its stack: node's
   * internals, native socket writes, promise jobs and V8 builtins count for whoever called them.
   */
  readonly owners: readonly Row[];
}

/** Areas that are not an owner of the work: their time belongs to the caller. */
function isPlumbing(area: string): boolean {
  return (
    area.startsWith('node:') ||
    area.startsWith('V8') ||
    area === 'crypto' ||
    area === 'JSON' ||
    area === 'bench probe (overhead)' ||
    area.startsWith('(program)')
  );
}

const PACKAGE_AREAS: Record<string, string> = {
  kafkajs: 'kafkajs',
  pg: 'pg / pg-protocol',
  'pg-protocol': 'pg / pg-protocol',
  'pg-pool': 'pg / pg-protocol',
  'pg-types': 'pg / pg-protocol',
  'postgres-array': 'pg / pg-protocol',
  'postgres-date': 'pg / pg-protocol',
  'pg-connection-string': 'pg / pg-protocol',
  undici: 'undici',
  pino: 'pino / logging',
  'pino-std-serializers': 'pino / logging',
  'sonic-boom': 'pino / logging',
  'thread-stream': 'pino / logging',
  'fast-redact': 'pino / logging',
  'on-exit-leak-free': 'pino / logging',
  'prom-client': 'prom-client',
  typeorm: 'typeorm',
  zod: 'zod (validation)',
  ajv: 'ajv (validation)',
};
const JSON_BUILTINS = new Set(['parse', 'stringify', 'JSONParse', 'JSONStringify']);
/** Native bindings (no script URL) that write to or read from sockets: the system calls. */
const SOCKET_NATIVES = new Set([
  'writev',
  'writeBuffer',
  'writeString',
  'writeUtf8String',
  'writeLatin1String',
  'writeAsciiString',
  'writeUcs2String',
  'readStart',
  'readStop',
  'shutdown',
]);

/** The area a frame's self time is counted under. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return '(program): native, unattributed';
  if (url.startsWith('wasm://') || functionName === 'js-to-wasm' || functionName === 'wasm-to-js')
    return 'undici'; // llhttp, undici's HTTP parser, is its only WebAssembly
  if (url === '') {
    if (JSON_BUILTINS.has(functionName)) return 'JSON';
    if (SOCKET_NATIVES.has(functionName)) return 'node: socket writes (native)';
    if (functionName === 'runMicrotasks') return 'V8: microtask queue (promises)';
    if (functionName.startsWith('RegExp:')) return 'V8: RegExp';
    if (/^validate\d+$/.test(functionName)) return 'ajv (validation)'; // ajv's generated code
    return 'V8 builtins / other natives';
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    const pkg = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? '?');
    if (pkg.startsWith('@nestjs/') || pkg === 'fastify' || pkg.startsWith('@fastify/'))
      return 'nestjs / fastify';
    return PACKAGE_AREAS[pkg] ?? `npm: ${pkg}`;
  }
  if (url.endsWith('/dist/bench/probe.js')) return 'bench probe (overhead)';
  const lib = /\/dist\/(libs|apps)\/([^/]+)\//.exec(url);
  if (lib) return `${lib[1]}/${lib[2]}`;
  if (url.startsWith('node:')) {
    if (url.includes('crypto')) return 'crypto';
    if (
      /node:internal\/(streams|stream_base|net|dns|tcp|timers|process\/task_queues)|node:(net|stream)/.test(
        url,
      )
    )
      return 'node: net / streams / timers';
    return 'node: other internals';
  }
  return `other: ${basename(url)}`;
}

function functionLabel(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName;
  const nm = frame.url.lastIndexOf('/node_modules/');
  const where =
    nm >= 0
      ? frame.url.slice(nm + '/node_modules/'.length)
      : frame.url.replace(/^file:\/\/.*\/dist\//, '').replace(/^node:/, 'node:');
  return `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
}

/** Self time per function and per area, for samples in [fromUs, toUs] of the profile's clock. */
export function summarize(
  profile: CpuProfile,
  window: { fromUs?: number; toUs?: number } = {},
  top = 20,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerOf = new Map<number, string>();
  const owner = (id: number): string => {
    const known = ownerOf.get(id);
    if (known !== undefined) return known;
    const frame = byId.get(id);
    let o = frame ? areaOf(frame) : '?';
    if (isPlumbing(o)) {
      const p = parent.get(id);
      const up = p === undefined || byId.get(p)?.functionName === '(root)' ? undefined : owner(p);
      o = up ?? `${o} (no library on the stack)`;
    }
    ownerOf.set(id, o);
    return o;
  };
  const owners = new Map<string, number>();
  const fn = new Map<string, { area: string; us: number }>();
  const area = new Map<string, number>();
  const from = window.fromUs ?? -Infinity;
  const to = window.toUs ?? Infinity;
  let t = profile.startTime;
  let total = 0;
  let idle = 0;
  let samples = 0;
  const n = profile.samples.length;
  for (let i = 0; i < n; i++) {
    t += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one (the last one: until the profile's end).
    const next = i + 1 < n ? t + (profile.timeDeltas[i + 1] ?? 0) : profile.endTime;
    const dt = Math.max(0, next - t);
    if (t < from || t > to) continue;
    const frame = byId.get(profile.samples[i] ?? -1);
    if (!frame || frame.functionName === '(root)') continue;
    const a = areaOf(frame);
    const label = functionLabel(frame);
    const f = fn.get(label) ?? { area: a, us: 0 };
    f.us += dt;
    fn.set(label, f);
    area.set(a, (area.get(a) ?? 0) + dt);
    const o = owner(profile.samples[i] ?? -1);
    owners.set(o, (owners.get(o) ?? 0) + dt);
    total += dt;
    if (a === 'idle') idle += dt;
    samples++;
  }
  const row = (name: string, a: string, us: number): Row => ({
    name,
    area: a,
    ms: us / 1000,
    share: total > 0 ? us / total : 0,
  });
  return {
    totalMs: total / 1000,
    busyMs: (total - idle) / 1000,
    samples,
    functions: [...fn]
      .filter(([, v]) => v.area !== 'idle')
      .sort((x, y) => y[1].us - x[1].us)
      .slice(0, top)
      .map(([k, v]) => row(k, v.area, v.us)),
    areas: [...area].sort((x, y) => y[1] - x[1]).map(([k, us]) => row(k, k, us)),
    owners: [...owners].sort((x, y) => y[1] - x[1]).map(([k, us]) => row(k, k, us)),
  };
}

const ms = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (n: number): string => `${(n * 100).toFixed(1)} %`;
const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** The two tables as Markdown. Shares are of the sampled window, idle included. */
export function renderSummary(s: ProfileSummary): string {
  const busy = (ms_: number): string => (s.busyMs > 0 ? pct(ms_ / s.busyMs) : '');
  const fns = s.functions.map(
    (r, i) =>
      `| ${i + 1} | ${ms(r.ms)} | ${pct(r.share)} | ${busy(r.ms)} | \`${cell(r.name)}\` | ${cell(r.area)} |`,
  );
  const table = (rows: readonly Row[]): string[] =>
    rows.map(
      (r) => `| ${cell(r.name)} | ${ms(r.ms)} | ${pct(r.share)} | ${r.name === 'idle' ? '' : busy(r.ms)} |`,
    );
  return [
    `Main thread, ${ms(s.totalMs)} ms sampled (${s.samples.toLocaleString('en-US')} samples), busy ${ms(s.busyMs)} ms (${pct(s.totalMs > 0 ? s.busyMs / s.totalMs : 0)}).`,
    '',
    '| # | self ms | of window | of busy | function | area |',
    '| --- | --- | --- | --- | --- | --- |',
    ...fns,
    '',
    '| area (self time) | ms | of window | of busy |',
    '| --- | --- | --- | --- |',
    ...table(s.areas),
    '',
    '| area, with the node internals, natives and builtins it called | ms | of window | of busy |',
    '| --- | --- | --- | --- |',
    ...table(s.owners),
  ].join('\n');
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file || file.startsWith('--')) {
    console.error(
      'usage: node dist/bench/profile-report.js <file.cpuprofile> [--from µs] [--to µs] [--top n]',
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const from = arg('--from');
  const to = arg('--to');
  console.log(
    renderSummary(
      summarize(
        profile,
        {
          ...(from === undefined ? {} : { fromUs: Number(from) }),
          ...(to === undefined ? {} : { toUs: Number(to) }),
        },
        Number(arg('--top') ?? 20),
      ),
    ),
  );
}
