/**
 * `BENCH_PROFILE=1 npm run bench`: where the end-to-end phase's time goes. The service of that
 * phase runs under `node --cpu-prof` with the counting probe (bench/probe.ts) preloaded. Around the
 * measured window (first command sent -> last terminal event seen) the bench takes snapshots of:
 *   - the probe's counts (SQL statements by text, Kafka requests by API, HTTP requests by path);
 *   - pg_stat_database and pg_stat_user_tables of the phase's database (read again after the
 *     service has stopped, when its backends have flushed their statistics);
 *   - the service's /metrics (relay publishes, provider calls) and the sandbox's received summary;
 *   - CPU time per process from /proc (service, sandbox, Postgres, Kafka, this bench, the rest).
 * Then it cuts the CPU profile to the window and prints a top-functions table and per-payout counts.
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { type ProbeCounts, type ProbeMark } from './probe.js';
import { type CpuProfile, renderSummary, summarize } from './profile-report.js';
import { ROOT } from './support.js';

export const PROFILE = process.env['BENCH_PROFILE'] === '1';

/** Where the profile and the probe's marks go: .run/bench-profile/<run>/. */
export function profileDir(run: string): string {
  const dir = resolve(ROOT, '.run/bench-profile', run);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** How to start a service under the profiler with the probe preloaded, writing into `dir`. */
export function profiledLaunch(dir: string): Launch {
  return {
    nodeArgs: [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '--import',
      pathToFileURL(resolve(ROOT, 'dist/bench/probe.js')).href,
    ],
    env: { BENCH_PROBE_DIR: dir },
  };
}

export interface Launch {
  readonly nodeArgs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

type Table = Record<string, number>;
interface PgStats {
  readonly database: Table;
  readonly tables: Record<string, Table>;
}
interface Snapshot {
  readonly atMs: number;
  readonly probe: ProbeMark;
  readonly metrics: Table;
  readonly sandbox: Table;
  readonly cpuTicks: Table;
}

const CLK_TCK = 100; // Linux USER_HZ: /proc reports CPU time in 1/100 s.

/** CPU time (ticks) of every process, grouped: the service, the sandbox, Postgres, Kafka, ... */
function cpuTicks(pids: Record<string, number | undefined>): Table {
  const byPid = new Map(Object.entries(pids).flatMap(([k, v]) => (v === undefined ? [] : [[v, k] as const])));
  const out: Table = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
    const group =
      byPid.get(Number(entry)) ??
      (comm === 'postgres' ? 'postgres' : comm === 'java' ? 'kafka (java)' : 'other processes');
    out[group] = (out[group] ?? 0) + ticks;
  }
  return out;
}

/** Counters of interest from a Prometheus text exposition, summed over the labels we drop. */
function parseMetrics(text: string): Table {
  const out: Table = {};
  for (const line of text.split('\n')) {
    const m =
      /^(payouts_relay_published_total|payouts_provider_authorize_total|payouts_provider_request_duration_seconds_count|payouts_commands_consumed_total)(\{[^}]*\})? ([0-9.e+]+)$/.exec(
        line,
      );
    if (!m?.[1]) continue;
    const endpoint = /endpoint="([^"]*)"/.exec(m[2] ?? '')?.[1];
    const key = endpoint ? `${m[1]} ${endpoint}` : m[1];
    out[key] = (out[key] ?? 0) + Number(m[3]);
  }
  return out;
}

async function sandboxSummary(url: string): Promise<Table> {
  const r = await fetch(`${url}/__sandbox/received/summary`);
  const s = (await r.json()) as { total: number; byEndpoint: Record<string, { total: number }> };
  const out: Table = { 'initiations received': s.total };
  for (const [e, v] of Object.entries(s.byEndpoint)) out[`initiations ${e}`] = v.total;
  return out;
}

async function pgStats(dbUrl: string): Promise<PgStats> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const db = await c.query<Record<string, string>>(
      `SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, tup_fetched, blks_hit, blks_read
         FROM pg_stat_database WHERE datname = current_database()`,
    );
    const t = await c.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
      `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del
         FROM pg_stat_user_tables`,
    );
    const database: Table = {};
    for (const [k, v] of Object.entries(db.rows[0] ?? {})) database[k] = Number(v);
    const tables: Record<string, Table> = {};
    for (const r of t.rows)
      tables[r.relname] = {
        inserted: Number(r.ins),
        updated: Number(r.upd),
        'hot updated': Number(r.hot),
        deleted: Number(r.del),
      };
    return { database, tables };
  } finally {
    await c.end();
  }
}

function diff(a: Table, b: Table): Table {
  const out: Table = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = (b[k] ?? 0) - (a[k] ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}

const f1 = (n: number): string =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
const cell = (s: string): string => s.replace(/\|/g, '\\|');

export class ProfileSession {
  private before?: PgStats;
  private idleFrom?: ProbeMark;
  private start?: Snapshot;
  private end?: Snapshot;
  private seq = 0;

  constructor(
    private readonly dir: string,
    private readonly svc: ChildProcess,
    private readonly dbUrl: string,
    private readonly serviceUrl: string,
    private readonly sandboxUrl: string,
    private readonly sandboxPid: number | undefined,
  ) {}

  private async probeMark(): Promise<ProbeMark> {
    const seq = this.seq++;
    const file = resolve(this.dir, `mark-${seq}.json`);
    this.svc.kill('SIGUSR2');
    const deadline = Date.now() + 5000;
    while (!existsSync(file)) {
      if (Date.now() > deadline) throw new Error(`the probe wrote no ${file}: is it preloaded?`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return JSON.parse(readFileSync(file, 'utf8')) as ProbeMark;
  }

  private async snapshot(): Promise<Snapshot> {
    const cpu = cpuTicks({
      service: this.svc.pid,
      sandbox: this.sandboxPid,
      'bench (load + observer)': process.pid,
    });
    const probe = await this.probeMark();
    const metrics = parseMetrics(await (await fetch(`${this.serviceUrl}/metrics`)).text());
    return {
      atMs: performance.now(),
      probe,
      metrics,
      sandbox: await sandboxSummary(this.sandboxUrl),
      cpuTicks: cpu,
    };
  }

  /** Start of the warm-up wait: background work (idle polls) is counted from here to `begin`. */
  async idle(): Promise<void> {
    this.idleFrom = await this.probeMark();
  }

  async begin(): Promise<void> {
    this.before = await pgStats(this.dbUrl);
    this.start = await this.snapshot();
  }

  async finish(): Promise<void> {
    this.end = await this.snapshot();
  }

  /** After the service has exited (profile written, statistics flushed): the report, in Markdown. */
  async report(payouts: number, perSecond: number): Promise<string> {
    const { start, end, idleFrom, before } = this;
    if (!start || !end || !before) throw new Error('profile: begin() and finish() were not both called');
    const after = await pgStats(this.dbUrl);
    const outbox = await this.outboxRows();
    const n = Math.max(1, payouts);
    const windowS = (end.atMs - start.atMs) / 1000;
    const out: string[] = [];
    const line = (s = ''): void => {
      out.push(s);
    };

    line(
      `End-to-end phase under the profiler: ${payouts.toLocaleString('en-US')} payouts in ${windowS.toFixed(1)} s (${Math.round(perSecond).toLocaleString('en-US')} payouts/s; the profiler and the probe cost some of it).`,
    );
    line();
    line('CPU time per process in the window (from /proc; 2 cores = 200 %):');
    line();
    line('| process | CPU s | of one core | CPU ms per payout |');
    line('| --- | --- | --- | --- |');
    const cpu = Object.entries(diff(start.cpuTicks, end.cpuTicks)).sort((a, b) => b[1] - a[1]);
    let cpuTotal = 0;
    for (const [k, ticks] of cpu) {
      const s = ticks / CLK_TCK;
      cpuTotal += s;
      line(`| ${k} | ${s.toFixed(1)} | ${Math.round((s / windowS) * 100)} % | ${f1((s * 1000) / n)} |`);
    }
    line(
      `| all | ${cpuTotal.toFixed(1)} | ${Math.round((cpuTotal / windowS) * 100)} % | ${f1((cpuTotal * 1000) / n)} |`,
    );

    const profiles = readdirSync(this.dir).filter((f) => f.endsWith('.cpuprofile'));
    line();
    line('### CPU profile of the service (main thread, self time, the window only)');
    line();
    if (profiles[0]) {
      const file = resolve(this.dir, profiles[0]);
      const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
      line(renderSummary(summarize(profile, { fromUs: start.probe.hrtimeUs, toUs: end.probe.hrtimeUs }, 25)));
      line();
      line(
        `Profile: ${file.replace(`${ROOT}/`, '')} (open in Chrome DevTools or speedscope for a flame graph).`,
      );
    } else {
      line('No .cpuprofile was written (did the service exit cleanly?).');
    }

    line();
    line(`### Per payout (${payouts.toLocaleString('en-US')} payouts)`);
    line();
    line('| what | total | per payout |');
    line('| --- | --- | --- |');
    const row = (what: string, total: number): void => {
      line(`| ${cell(what)} | ${Math.round(total).toLocaleString('en-US')} | ${f1(total / n)} |`);
    };
    const sql = diff(start.probe.counts.sql, end.probe.counts.sql);
    const sqlTotal = Object.values(sql).reduce((a, b) => a + b, 0);
    const tx = diff(start.probe.counts.transactions, end.probe.counts.transactions);
    row('SQL statements sent by the service (probe; BEGIN/COMMIT included)', sqlTotal);
    row('  explicit transactions (BEGIN)', tx['explicit transactions'] ?? 0);
    row('  statements inside them (BEGIN/COMMIT not counted)', tx['statements in transactions'] ?? 0);
    row('  single statements outside a transaction', tx['single-statement transactions'] ?? 0);
    const db = diff(before.database, after.database);
    const exitFile = resolve(this.dir, 'exit.json');
    if (existsSync(exitFile)) {
      const exit = JSON.parse(readFileSync(exitFile, 'utf8')) as ProbeMark;
      const t = diff(start.probe.counts.transactions, exit.counts.transactions);
      row(
        'transactions the service opened, first command -> its exit (probe: BEGIN + single statements)',
        (t['explicit transactions'] ?? 0) + (t['single-statement transactions'] ?? 0),
      );
    }
    row(
      'Postgres transactions, first command -> service exit (pg_stat_database xact_commit + xact_rollback)',
      (db['xact_commit'] ?? 0) + (db['xact_rollback'] ?? 0),
    );
    row('  rolled back', db['xact_rollback'] ?? 0);
    row('Postgres rows inserted (tup_inserted)', db['tup_inserted'] ?? 0);
    row('Postgres rows updated (tup_updated)', db['tup_updated'] ?? 0);
    row('Postgres rows deleted (tup_deleted)', db['tup_deleted'] ?? 0);
    const tables = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
    for (const t of [...tables].sort()) {
      const d = diff(before.tables[t] ?? {}, after.tables[t] ?? {});
      for (const [k, v] of Object.entries(d)) row(`  ${t}: rows ${k}`, v);
    }
    for (const [k, v] of Object.entries(outbox)) row(`outbox rows ${k}`, v);
    const kafka = diff(start.probe.counts.kafka, end.probe.counts.kafka);
    row(
      'Kafka requests by the service (probe)',
      Object.values(kafka).reduce((a, b) => a + b, 0),
    );
    for (const [k, v] of Object.entries(kafka).sort((a, b) => b[1] - a[1])) row(`  ${k}`, v);
    const metrics = diff(start.metrics, end.metrics);
    for (const [k, v] of Object.entries(metrics).sort()) row(`/metrics ${k}`, v);
    const http = diff(start.probe.counts.http, end.probe.counts.http);
    row(
      'HTTP requests by the service (probe, undici)',
      Object.values(http).reduce((a, b) => a + b, 0),
    );
    for (const [k, v] of Object.entries(http).sort((a, b) => b[1] - a[1])) row(`  ${k}`, v);
    for (const [k, v] of Object.entries(diff(start.sandbox, end.sandbox))) row(`sandbox: ${k}`, v);
    const bytes = diff(start.probe.counts.bytesWritten, end.probe.counts.bytesWritten);
    for (const [k, v] of Object.entries(bytes).sort((a, b) => b[1] - a[1]))
      row(`bytes the service wrote to ${k} (probe, net.Socket#write)`, v);

    line();
    line('Statements by text (probe), most frequent first:');
    line();
    const idleS = idleFrom ? (start.probe.hrtimeUs - idleFrom.hrtimeUs) / 1e6 : 0;
    const idleSql = idleFrom ? diff(idleFrom.counts.sql, start.probe.counts.sql) : {};
    line('| calls | per payout | with no load, per s | statement |');
    line('| --- | --- | --- | --- |');
    for (const [k, v] of Object.entries(sql)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25))
      line(
        `| ${v.toLocaleString('en-US')} | ${f1(v / n)} | ${idleS > 0 ? f1((idleSql[k] ?? 0) / idleS) : ''} | \`${cell(k)}\` |`,
      );

    if (idleFrom) {
      const count = (a: ProbeCounts, b: ProbeCounts): [number, number] => [
        Object.values(diff(a.sql, b.sql)).reduce((x, y) => x + y, 0),
        Object.values(diff(a.kafka, b.kafka)).reduce((x, y) => x + y, 0),
      ];
      const [s, k] = count(idleFrom.counts, start.probe.counts);
      line();
      line(
        `Background with no load (the ${idleS.toFixed(1)} s before the first command): ${f1(s / idleS)} SQL statements/s and ${f1(k / idleS)} Kafka requests/s. The window's counts include that much background; the pg_stat figures also include the seconds from the last event to the service's exit.`,
      );
    }
    return out.join('\n');
  }

  private async outboxRows(): Promise<Table> {
    const c = new pg.Client({ connectionString: this.dbUrl });
    await c.connect();
    try {
      const { rows } = await c.query<{ t: string; n: string }>(
        'SELECT event_type AS t, count(*) AS n FROM outbox GROUP BY 1 ORDER BY 1',
      );
      const out: Table = {};
      for (const r of rows) out[r.t] = Number(r.n);
      return out;
    } finally {
      await c.end();
    }
  }
}
