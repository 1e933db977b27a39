import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';
import { databaseName, runMigrations, withDatabase } from '#database';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BASE_URL =
  process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/payouts_bench';

/** A database of this run: BENCH_DATABASE_URL's name + `_` + suffix (payouts_bench_e2e by default). */
export function benchDatabase(suffix: string): string {
  return `${databaseName(BASE_URL)}_${suffix}`;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: withDatabase(BASE_URL, 'postgres') });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh, migrated database for one phase (cloned from a template migrated once per run). */
export async function freshDatabase(name: string, template: string): Promise<string> {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  });
  return withDatabase(BASE_URL, name);
}

export async function migratedTemplate(name: string): Promise<void> {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  await runMigrations(withDatabase(BASE_URL, name));
}

/**
 * A pool for the bench's own queries. pg-pool's end() resolves before its connections have
 * closed, so the DROP ... WITH (FORCE) that follows can terminate one still closing: that error
 * is expected and must not crash the bench.
 */
export function benchPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  return pool;
}

export async function dropDatabase(name: string): Promise<void> {
  await admin(async (c) => {
    // OUTBOX_TRANSPORT=wal leaves its replication slot, which would refuse the drop.
    await c.query(
      'SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1 AND NOT active',
      [name],
    );
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

export function startNode(
  script: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, resolve(ROOT, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

export async function stopNode(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export async function waitHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A process's memory as the bench saw it, in MB (10^6 bytes, as the goal is written). */
export interface MemoryFigures {
  /** Largest VmRSS of the samples (every `intervalMs`, from the process's start). */
  readonly peakRssMB: number;
  /** VmHWM (the kernel's own peak RSS over the process's life), read just before it is stopped. */
  readonly hwmMB: number | undefined;
  readonly samples: number;
}

/** A field of /proc/<pid>/status in kB (KiB), or undefined once the process is gone. */
function procStatusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * Samples a process's resident memory (VmRSS in /proc/<pid>/status) every `intervalMs` on the
 * bench's own timer, keeping the peak. `stop()` takes a last sample and reads VmHWM: call it
 * before the process is stopped (the file is gone once it has exited).
 */
export class RssSampler {
  private peakKiB = 0;
  private samples = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const kib = procStatusKiB(this.pid, 'VmRSS');
    if (kib === undefined) return;
    this.samples++;
    this.peakKiB = Math.max(this.peakKiB, kib);
  }

  /** The resident memory now, in MB (undefined once the process is gone). */
  current(): number | undefined {
    const kib = procStatusKiB(this.pid, 'VmRSS');
    return kib === undefined ? undefined : (kib * 1024) / 1e6;
  }

  stop(): MemoryFigures {
    clearInterval(this.timer);
    this.sample();
    const hwm = procStatusKiB(this.pid, 'VmHWM');
    return {
      peakRssMB: (this.peakKiB * 1024) / 1e6,
      hwmMB: hwm === undefined ? undefined : (hwm * 1024) / 1e6,
      samples: this.samples,
    };
  }
}

/** The benches' command: a direct transfer of 101.00 to the sandbox's success account. */
export function directTransferCommand(transferId: string): { key: string; value: string } {
  return {
    key: transferId,
    value: JSON.stringify({
      type: 'payout.direct_transfer',
      data: {
        transferId,
        amount: '101.00',
        beneDetails: { name: 'Bench Person', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
      },
    }),
  };
}

/**
 * The provider sandbox for a bench: rate limits off, zero latency, a balance no bench exhausts.
 * Answers once its clock endpoint does; stopped again if it never does.
 */
export async function startBenchSandbox(): Promise<{
  url: string;
  pid: number | undefined;
  stop: () => Promise<void>;
}> {
  const port = await freePort();
  const proc = startNode('dist/apps/provider-sandbox/src/main.js', {
    SANDBOX_PORT: String(port),
    SANDBOX_LOG_LEVEL: 'warn',
    SANDBOX_INITIAL_BALANCE: '9999999999999.00',
    SANDBOX_RATE_LIMIT_TRANSFER: '0',
    SANDBOX_RATE_LIMIT_STATUS: '0',
    SANDBOX_RATE_LIMIT_AUTHORIZE: '0',
    SANDBOX_RATE_LIMIT_OTHER: '0',
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitHttp(`${url}/__sandbox/clock`);
  } catch (e) {
    await stopNode(proc);
    throw e;
  }
  return { url, pid: proc.pid, stop: () => stopNode(proc) };
}
