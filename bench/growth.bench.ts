/**
 * `npm run bench:growth`: does the ledger stay fast when it is big (issue 23, lever 5)?
 *
 * 1. The end-to-end burst (GROWTH_E2E_N payouts at once, command -> terminal event, one instance
 *    with the pipeline roles, bench/stack.ts) on an empty ledger.
 * 2. The ledger `payouts_bench_growth` prefilled in SQL (bench/growth-prefill.ts: GROWTH_PAYOUTS,
 *    default 10,000,000, and GROWTH_HISTORY, default 50,000,000, over GROWTH_MONTHS months).
 * 3. The plans of the hot statements and of the operations' reads (bench/growth-plans.ts) with no
 *    statistics (never analysed: this Postgres runs no autovacuum, and a production table between
 *    a bulk load or a burst and the next autovacuum is in the same state), then after ANALYZE.
 * 4. The same burst on the prefilled ledger.
 * Each burst reports payouts/s and CPU per payout of the service process and of the Postgres
 * backends serving its database (/proc utime + stime; Postgres's background processes are shared
 * with the box and left out), rows written per payout (pg_stat_user_tables) and WAL bytes per
 * payout (the cluster's: other databases' writes are in it on a shared box).
 * The prefilled database is dropped at the end unless GROWTH_KEEP=1; GROWTH_REUSE=1 uses one kept
 * from an earlier run (same sizes) instead of filling it again. GROWTH_TOPIC_PREFIX goes before the
 * topic names; BENCH_DATABASE_URL names the databases (`<its name>_growth`, `_growth_empty`, ...).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { TOPICS, topicName } from '#contracts';
import { withDatabase } from '#database';
import { CpuMeter } from './cpu.js';
import { prefill, type PrefillTimings } from './growth-prefill.js';
import { checkedInSql, explainAll, planCases, type PlanResult, sample } from './growth-plans.js';
import { type BenchEnv, PIPELINE_ROLES, startStack, waitGroup } from './stack.js';
import {
  BASE_URL,
  benchDatabase,
  directTransferCommand,
  dropDatabase,
  freshDatabase,
  migratedTemplate,
  startBenchSandbox,
} from './support.js';

function numberEnv(name: string, fallback: number): number {
  const v = process.env[name];
  return v === undefined || v === '' ? fallback : Number(v);
}
const PAYOUTS = numberEnv('GROWTH_PAYOUTS', 10_000_000);
const HISTORY = numberEnv('GROWTH_HISTORY', 50_000_000);
const MONTHS = numberEnv('GROWTH_MONTHS', 12);
const E2E_N = numberEnv('GROWTH_E2E_N', 10_000);
const KEEP = process.env['GROWTH_KEEP'] === '1';
/** Put before the topics' names (a shared broker: `team.`). */
const TOPIC_PREFIX = process.env['GROWTH_TOPIC_PREFIX'] ?? '';
const REUSE = process.env['GROWTH_REUSE'] === '1';
const BROKERS = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const TEMPLATE = benchDatabase('growth_template');
const GROWN = benchDatabase('growth');
const kafka = new Kafka({ clientId: 'bench-growth', brokers: BROKERS, logLevel: logLevel.NOTHING });
const env: BenchEnv = { kafka, brokers: BROKERS, template: TEMPLATE, partitions: 4 };
const run = Date.now().toString(36);
const fmt = (n: number, d = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

const started = Date.now();
function progress(text: string): void {
  const s = Math.round((Date.now() - started) / 1000);
  console.log(`[${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}] ${text}`);
}

/** CPU ticks (1/100 s) of a process, 0 once gone. */
function ticks(pid: number): number {
  try {
    const t = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

interface Counters {
  readonly backends: Map<number, number>;
  readonly wal: string;
  readonly tables: Record<string, { ins: number; upd: number; hot: number; del: number }>;
}

async function counters(c: pg.Client, db: string): Promise<Counters> {
  const { rows: pids } = await c.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [db],
  );
  const { rows: wal } = await c.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`);
  const { rows: t } = await c.query<{ t: string; ins: string; upd: string; hot: string; del: string }>(
    `SELECT CASE WHEN relname LIKE 'state_history%' THEN 'state_history' ELSE relname END AS t,
            sum(n_tup_ins)::text AS ins, sum(n_tup_upd)::text AS upd, sum(n_tup_hot_upd)::text AS hot, sum(n_tup_del)::text AS del
       FROM pg_stat_user_tables WHERE relname IN ('payout', 'outbox') OR relname LIKE 'state_history%' GROUP BY 1`,
  );
  return {
    backends: new Map(pids.map((p) => [p.pid, ticks(p.pid)])),
    wal: wal[0]?.lsn ?? '0/0',
    tables: Object.fromEntries(
      t.map((r) => [r.t, { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) }]),
    ),
  };
}

interface Burst {
  readonly label: string;
  readonly perSecond: number;
  readonly serviceMs: number;
  readonly postgresMs: number;
  readonly walBytes: number;
  readonly rows: Record<string, { ins: number; upd: number; hot: number; del: number }>;
  readonly load: number;
}

/** The e2e burst: `n` direct transfers at once, timed to their terminal events. */
async function burst(label: string, sandboxUrl: string, dbName: string, existing?: string): Promise<Burst> {
  const prefix = `${TOPIC_PREFIX}bench-growth-${label}-${run}`;
  const s = await startStack(env, {
    dbName,
    prefix,
    roles: [PIPELINE_ROLES],
    sandboxUrl,
    ...(existing ? { existingDatabaseUrl: existing } : {}),
  });
  const admin = new pg.Client({ connectionString: s.dbUrl });
  await admin.connect();
  const consumer = kafka.consumer({ groupId: `${prefix}.observer` });
  const producer = kafka.producer();
  try {
    const pending = new Set<string>();
    let last = 0;
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(prefix, TOPICS.events), fromBeginning: true });
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages) {
            const e = JSON.parse(m.value?.toString() ?? '{}') as {
              subject: string;
              data: { status: string };
            };
            if ((e.data.status === 'SUCCESS' || e.data.status === 'FAILED') && pending.delete(e.subject))
              last = performance.now();
          }
          if (pending.size === 0) resolve();
          return Promise.resolve();
        },
      });
    });
    await waitGroup(kafka, `${prefix}.observer`, 1);
    await producer.connect();
    await new Promise((r) => setTimeout(r, 2000));
    const msgs = Array.from({ length: E2E_N }, (_, i) => directTransferCommand(`gr_${label}_${run}_${i}`));
    for (const m of msgs) pending.add(m.key);
    const svc = s.services[0]?.proc.pid;
    const load = loadavg()[0] ?? 0;
    const before = await counters(admin, dbName);
    const cpu = new CpuMeter({ services: [svc], databases: [dbName] });
    const t0 = performance.now();
    const topic = topicName(prefix, TOPICS.commands);
    for (let i = 0; i < msgs.length; i += 500)
      await producer.send({ topic, messages: msgs.slice(i, i + 500) });
    await Promise.race([done, new Promise((r) => setTimeout(r, 180_000))]);
    const serviceMs = cpu.perUnit(E2E_N).byGroup.service;
    const completed = E2E_N - pending.size;
    if (completed < E2E_N)
      throw new Error(`${label}: ${completed} of ${E2E_N} payouts terminal within 180 s`);
    await new Promise((r) => setTimeout(r, 11_000)); // an idle backend flushes its table statistics within 10 s
    const after = await counters(admin, dbName);
    let pgTicks = 0;
    for (const [pid, t] of after.backends) pgTicks += t - (before.backends.get(pid) ?? 0);
    const { rows: wal } = await admin.query<{ b: string }>(`SELECT pg_wal_lsn_diff($1, $2)::text AS b`, [
      after.wal,
      before.wal,
    ]);
    const rows: Burst['rows'] = {};
    for (const [t, a] of Object.entries(after.tables)) {
      const b = before.tables[t] ?? { ins: 0, upd: 0, hot: 0, del: 0 };
      rows[t] = {
        ins: (a.ins - b.ins) / E2E_N,
        upd: (a.upd - b.upd) / E2E_N,
        hot: (a.hot - b.hot) / E2E_N,
        del: (a.del - b.del) / E2E_N,
      };
    }
    return {
      label,
      perSecond: E2E_N / ((last - t0) / 1000),
      serviceMs,
      postgresMs: (pgTicks * 10) / E2E_N,
      walBytes: Number(wal[0]?.b ?? 0) / E2E_N,
      rows,
      load,
    };
  } finally {
    await producer.disconnect();
    await consumer.disconnect();
    await admin.end();
    await s.stop();
  }
}

function printBursts(bursts: readonly Burst[]): void {
  console.log(
    '\n| ledger | payouts/s | CPU ms/payout: service | Postgres backends | WAL bytes/payout | rows/payout (ins/upd/hot/del) | load |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const b of bursts) {
    const rows = Object.entries(b.rows)
      .map(([t, r]) => `${t} ${fmt(r.ins, 1)}/${fmt(r.upd, 1)}/${fmt(r.hot, 1)}/${fmt(r.del, 1)}`)
      .join('; ');
    console.log(
      `| ${b.label} | ${fmt(b.perSecond)} | ${fmt(b.serviceMs, 3)} | ${fmt(b.postgresMs, 3)} | ${fmt(b.walBytes)} | ${rows} | ${fmt(b.load, 1)} |`,
    );
  }
}

function printPlans(noStats: readonly PlanResult[], analysed: readonly PlanResult[]): void {
  console.log(
    '\n| statement | shape | no statistics: ms, plan | analysed: ms, plan | rows | history partitions |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [i, a] of noStats.entries()) {
    const b = analysed[i];
    const cell = (r: PlanResult | undefined): string =>
      r?.error ? `error: ${r.error}` : `${fmt(r?.ms ?? NaN, 2)} ms, ${r?.plan ?? ''}`;
    const same = b && !a.error && !b.error && a.plan !== b.plan ? ' **(plan changed)**' : '';
    console.log(
      `| ${a.tag} | ${a.shape} | ${cell(a)} | ${cell(b)}${same} | ${a.rows} | ${a.historyPartitions || ''} |`,
    );
  }
}

async function prefilled(): Promise<{ url: string; timings?: PrefillTimings }> {
  const url = withDatabase(BASE_URL, GROWN);
  if (REUSE) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      const { rows } = await c.query<{ n: string }>(`SELECT coalesce(max(id), 0)::text AS n FROM payout`);
      if (Number(rows[0]?.n) === PAYOUTS) {
        progress(`reusing ${GROWN} (${fmt(PAYOUTS)} payouts)`);
        return { url };
      }
    } catch {
      // not there: fill it
    } finally {
      await c.end().catch(() => undefined);
    }
  }
  await freshDatabase(GROWN, TEMPLATE);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    progress(
      `prefilling ${GROWN}: ${fmt(PAYOUTS)} payouts, ${fmt(HISTORY)} history rows over ${MONTHS} months`,
    );
    const timings = await prefill(c, { payouts: PAYOUTS, history: HISTORY, months: MONTHS }, progress);
    return { url, timings };
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  progress(`growth bench: ${fmt(PAYOUTS)} payouts, ${fmt(HISTORY)} history rows, bursts of ${fmt(E2E_N)}`);
  await migratedTemplate(TEMPLATE);
  const sandbox = await startBenchSandbox();
  const bursts: Burst[] = [];
  try {
    progress('burst on an empty ledger');
    bursts.push(await burst('empty', sandbox.url, benchDatabase('growth_empty')));
    const t0 = performance.now();
    const { url, timings } = await prefilled();
    const loadAfter = loadavg()[0] ?? 0;
    if (timings)
      progress(
        `prefilled in ${fmt((performance.now() - t0) / 1000)} s (payouts ${fmt(timings.payoutsS)} s, history ${fmt(timings.historyS)} s, indexes ${fmt(timings.indexesS)} s; load average ${fmt(loadAfter, 1)}): payout ${fmt(timings.payoutBytes / 1e9, 2)} GB, state_history ${fmt(timings.historyBytes / 1e9, 2)} GB with indexes`,
      );
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    let noStats: PlanResult[] = [];
    let analysed: PlanResult[] = [];
    try {
      const sql = checkedInSql();
      const picks = await sample(c, PAYOUTS);
      const { rows: analysedBefore } = await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stats WHERE tablename IN ('payout', 'state_history')`,
      );
      progress(
        `plans, no statistics (${analysedBefore[0]?.n ?? 0} column statistics on payout and state_history)`,
      );
      noStats = await explainAll(c, sql, planCases(picks, 'a'));
      // What migration 1764500000000 costs on an existing table of this size: attaching it checks
      // every row against the partition bound, one sequential scan in one process.
      await c.query('SET max_parallel_workers_per_gather = 0');
      const s0 = performance.now();
      // (A filter, not a WHERE: a WHERE on `at` would prune the partitions instead of reading them.)
      await c.query(
        `SELECT count(*) FILTER (WHERE NOT (at < now() + interval '1 month')) FROM state_history`,
      );
      progress(
        `one sequential scan of state_history (${fmt(HISTORY)} rows), the legacy attach's check: ${fmt((performance.now() - s0) / 1000, 1)} s`,
      );
      await c.query('RESET max_parallel_workers_per_gather');
      const a0 = performance.now();
      await c.query('ANALYZE payout');
      await c.query('ANALYZE state_history');
      progress(`ANALYZE payout, state_history: ${fmt((performance.now() - a0) / 1000, 1)} s`);
      analysed = await explainAll(c, sql, planCases(picks, 'b'));
    } finally {
      await c.end();
    }
    printPlans(noStats, analysed);
    progress('burst on the prefilled ledger (analysed)');
    bursts.push(await burst(`prefilled`, sandbox.url, GROWN, url));
    printBursts(bursts);
  } finally {
    await sandbox.stop();
    if (!KEEP) await dropDatabase(GROWN);
    await dropDatabase(TEMPLATE);
    progress(KEEP ? `kept ${GROWN}` : `dropped ${GROWN}`);
  }
}

await main();
