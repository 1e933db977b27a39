/**
 * `npm run bench`: payouts through the whole stack on this machine (Kafka, Postgres, the provider
 * sandbox at zero latency, the service), against issue 12's goals. Phases, in this order:
 *   - baseline: plain kafkajs consume -> one multi-row Postgres insert -> produce, messages/s;
 *   - raw pipeline: the same outside work as the service without its ledger logic (bench/raw-pipeline.ts);
 *   - intake: commands/s into the ledger (intake role only), and / baseline;
 *   - end to end, one instance: payouts/s from command to terminal event, / raw pipeline, burst
 *     latency p50/p95/p99, the service's memory (peak RSS sampled every 100 ms, VmHWM);
 *   - end to end, two instances with all pipeline roles each, and two processes with the roles split
 *     (A intake,relay; B executor,reconciler): payouts/s and / one instance;
 *   - steady: latency at each of BENCH_STEADY_RATES payouts/s (500 and 1,000), and the service's memory;
 *   - extra phases (`extraPhases` below).
 * Every measure runs BENCH_RUNS times (default 3) in rounds: the whole sequence above runs once per
 * round, so one measure's runs are minutes apart, not back to back. The table gives the median of
 * the runs, their spread (min-max) and each run's figure; ratios are taken within a round (intake
 * and baseline of the same round), then their median. Each round starts a fresh sandbox; each
 * phase a fresh database (from a template migrated once) and its own topics (deleted after it).
 *
 * Knobs: BENCH_RUNS (3), BENCH_INTAKE_N (20000), BENCH_E2E_N (10000, also the two-process phases),
 * BENCH_STEADY_RATES (500,1000), BENCH_STEADY_SECONDS (10), BENCH_PHASES (all: baseline,raw,intake,e2e,
 * two,split,steady,extra), BENCH_RECORD=0 (print only, leave docs/BENCHMARKS.md alone; so does any
 * failed phase or a BENCH_PHASES subset), BENCH_DATABASE_URL (the databases' base name).
 * BENCH_TRACING=otlp: the services trace (ADR 0015) and export over OTLP/HTTP to a local sink that
 * discards (bench/otlp-sink.ts); a record is then left alone, like a subset's.
 * BENCH_FUNDS_HOLD=1: the services hold for funds on the bench's account (FUNDS_HOLD, the balance
 * reader on; bench/funds-hold.ts), funded far above what is sent, so the check runs and holds
 * nothing; each phase sends once the account has a reading; a record is left alone.
 * BENCH_PROFILE=1: the first round's one-instance end-to-end service runs under `node --cpu-prof`
 * with a counting probe, and the bench prints where its time goes (bench/profile-run.ts) instead of
 * updating docs/BENCHMARKS.md (the profiler slows the service down); BENCH_RUNS defaults to 1 then.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { TOPICS, topicName } from '#contracts';
import { CpuMeter, type CpuPerUnit, describeCpu, CPU_GROUPS, type Footprint, FootprintMeter } from './cpu.js';
import { describeFundsHold, FUNDS_HOLD_BENCH, fundsHoldCheck, waitFirstReading } from './funds-hold.js';
import { startOtlpSink } from './otlp-sink.js';
import { PROFILE, profileDir, profiledLaunch, ProfileSession } from './profile-run.js';
import { rawPipeline } from './raw-pipeline.js';
import { stageBreakdown } from './stages.js';
import { runRateLimitBench } from './rate-limit.bench.js';
import {
  type BenchEnv,
  createTopics,
  deleteTopics,
  PIPELINE_ROLES,
  type RoundContext,
  startStack,
  waitGroup,
} from './stack.js';
import {
  BASE_URL,
  benchDatabase,
  benchPool,
  directTransferCommand,
  dropDatabase,
  freshDatabase,
  type MemoryFigures,
  migratedTemplate,
  percentile,
  ROOT,
  startBenchSandbox,
} from './support.js';
import { cpuMarkdown, CPU_PREFIX, markdown, Results, type Row } from './table.js';

function numberEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return n;
}

const RUNS = Math.round(numberEnv('BENCH_RUNS', PROFILE ? 1 : 3));
const INTAKE_N = numberEnv('BENCH_INTAKE_N', 20_000);
const E2E_N = numberEnv('BENCH_E2E_N', 10_000);
/** The steady phases' rates (payouts/s), each its own phase run; BENCH_STEADY_RATE: one rate only. */
const STEADY_RATES = (process.env['BENCH_STEADY_RATES'] ?? process.env['BENCH_STEADY_RATE'] ?? '500,1000')
  .split(',')
  .map((r) => {
    const n = Number(r.trim());
    if (!Number.isFinite(n) || n <= 0) throw new Error(`BENCH_STEADY_RATES: not a rate: ${r}`);
    return n;
  });
const STEADY_SECONDS = numberEnv('BENCH_STEADY_SECONDS', 10);
/** Seconds of load at the steady rate before the measured ones (a cold start is not a steady state). */
const STEADY_WARMUP_SECONDS = numberEnv('BENCH_STEADY_WARMUP_SECONDS', 5);
const PHASE_IDS = ['baseline', 'raw', 'intake', 'e2e', 'two', 'split', 'steady', 'extra'] as const;
type PhaseId = (typeof PHASE_IDS)[number];
const ONLY = process.env['BENCH_PHASES']
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const TRACING = process.env['BENCH_TRACING'] === 'otlp';
const RECORD =
  process.env['BENCH_RECORD'] !== '0' && !PROFILE && !TRACING && !FUNDS_HOLD_BENCH && ONLY === undefined;
const BROKERS = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const TEMPLATE = benchDatabase('template');
/** The broker's log directory (tools/kafka/kafka.sh), for the Kafka bytes a phase wrote. */
const KAFKA_LOG_DIR =
  process.env['BENCH_KAFKA_LOG_DIR'] ??
  resolve(
    process.env['KAFKA_DATA_DIR'] ?? resolve(ROOT, `.run/kafka-${BROKERS[0]?.split(':')[1] ?? '9092'}`),
    'logs',
  );
const PARTITIONS = 6;
const kafka = new Kafka({ clientId: 'bench', brokers: BROKERS, logLevel: logLevel.NOTHING });
const run = Date.now().toString(36);
const env: BenchEnv = { kafka, brokers: BROKERS, template: TEMPLATE, partitions: PARTITIONS };

/** Issue 12's goals. */
const GOAL = {
  intake: 20_000,
  intakeOfBaseline: 0.9,
  endToEnd: 3_000,
  endToEndOfRaw: 0.6,
  /** Issue 23: p99 at a steady rate, ms, by rate (issue 12 asked < 100 ms at 500/s). */
  steadyP99Ms: (rate: number): number => (rate <= 500 ? 50 : 100),
  rssMB: 300,
  twoOfOne: 1.5,
  /** Issue 23: CPU per payout in the end-to-end burst, ms: all the pipeline's processes, the service, Postgres. */
  cpuPipelineMs: 0.6,
  cpuServiceMs: 0.25,
  cpuPostgresMs: 0.15,
} as const;

/** The split set-up of the roles-split phase: one entry per process. */
const SPLIT_ROLES = ['intake,relay', 'executor,reconciler'];

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The table's measures; ratios look their operands up by these labels, within a round. */
const M = {
  baseline: 'baseline: kafkajs consume -> 1 pg insert per batch -> produce',
  raw: 'raw pipeline: consume -> insert -> 1 HTTP call each -> update -> produce (no ledger logic)',
  intake: 'intake: commands into the ledger (+ accepted events in the outbox)',
  intakeOfBaseline: 'intake / baseline',
  e2e: `end to end, one instance: ${fmt(E2E_N)} payouts at once, command -> terminal event`,
  e2eOfRaw: 'end to end / raw pipeline',
  burst: (p: number) => `latency at that burst: p${p}`,
  e2eRss: 'service memory during end to end: peak RSS (sampled every 100 ms)',
  e2eHwm: 'service memory during end to end: VmHWM at the end',
  e2eCpuPipeline:
    "end to end: CPU per payout, all the pipeline's processes (service, Postgres, Kafka, sandbox, load generator)",
  e2eCpuService: 'end to end: CPU per payout, the service',
  e2eWal: 'end to end: WAL written per payout (the whole cluster)',
  e2eLedger: "end to end: the ledger's growth per payout (tables, indexes, TOAST)",
  e2eKafka: "end to end: Kafka log bytes per payout (the phase's commands and events topics)",
  e2eCpuPostgres: 'end to end: CPU per payout, Postgres',
  two: `end to end, two instances with all pipeline roles each (one database, one consumer group), ${fmt(E2E_N)} payouts`,
  twoOfOne: 'two instances / one instance',
  split: `end to end, roles split on two processes (A ${SPLIT_ROLES[0]}; B ${SPLIT_ROLES[1]}), ${fmt(E2E_N)} payouts`,
  splitOfOne: 'roles split / one instance',
  steady: (rate: number) => (p: number) => `steady ${fmt(rate)} payouts/s for ${STEADY_SECONDS} s: p${p}`,
  steadyDone: (rate: number) => `steady ${fmt(rate)}/s: payouts completed`,
  steadyRss: (rate: number) => `service memory during steady ${fmt(rate)}/s: peak RSS (sampled every 100 ms)`,
  steadyHwm: (rate: number) => `service memory during steady ${fmt(rate)}/s: VmHWM at the end`,
} as const;

/**
 * Extra phases, run once per round after the pipeline's phases. Each call is one run: it returns
 * that run's rows, which join the table like every other (median of the rounds, spread, target).
 * `() => Promise<Row[]>` fits; the round's context (sandbox, Kafka, template database) is offered.
 */
const extraPhases: Array<(ctx: RoundContext) => Promise<Row[]>> = [providerLimit];

/**
 * Issue 12's provider limit: two instances share the account's 9,000 transfers/min through the
 * budget in Postgres (bench/rate-limit.bench.ts, ADR 0011). BENCH_RATE_SECONDS (60) per round.
 */
async function providerLimit(): Promise<Row[]> {
  const r = await runRateLimitBench({
    seconds: Number(process.env['BENCH_RATE_SECONDS'] ?? 60),
    brokers: (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(','),
  });
  const set = `provider limit ${r.limitPerMin.toLocaleString('en-US')}/min, ${r.instances} instances`;
  return [
    {
      measure: `${set}: sent per minute / limit`,
      value: r.ratio,
      unit: 'x',
      digits: 4,
      target: { op: '>=', value: 0.98 },
    },
    {
      measure: `${set}: most sent in any 60 s`,
      value: r.maxIn60s,
      unit: '',
      target: { op: '<=', value: r.limitPerMin },
    },
    {
      measure: `${set}: 429s refused by the sandbox`,
      value: r.refused429,
      unit: '',
      target: { op: '<=', value: 0 },
    },
    {
      measure: `${set}: 429s seen by the services`,
      value: r.seen429,
      unit: '',
      target: { op: '<=', value: 0 },
    },
  ];
}

function command(i: number, tag: string): { key: string; value: string } {
  return directTransferCommand(`${tag}_${run}_${i}`);
}

async function produceAll(
  producer: Producer,
  topic: string,
  msgs: Array<{ key: string; value: string }>,
): Promise<void> {
  for (let i = 0; i < msgs.length; i += 1000) {
    await producer.send({ topic, messages: msgs.slice(i, i + 1000) });
  }
}

/** `value` / the figure of `of` in the same round, as a row (none if `of` did not run or failed). */
function ratio(ctx: RoundContext, measure: string, value: number, of: string, target?: number): Row[] {
  const base = ctx.results.value(ctx.round, of);
  if (base === undefined) return [];
  return [
    {
      measure,
      value: value / base,
      unit: 'x',
      digits: 2,
      ...(target === undefined ? {} : { target: { op: '>=', value: target } }),
    },
  ];
}

const memoryRows = (m: MemoryFigures | undefined, peak: string, hwm: string): Row[] =>
  m === undefined
    ? []
    : [
        { measure: peak, value: m.peakRssMB, unit: 'MB', target: { op: '<', value: GOAL.rssMB } },
        ...(m.hwmMB === undefined
          ? []
          : [{ measure: hwm, value: m.hwmMB, unit: 'MB', target: { op: '<', value: GOAL.rssMB } } as Row]),
      ];

/**
 * A phase's CPU per unit as rows of the CPU table (bench/table.ts renders those apart, one line per
 * phase): each process group, the pipeline's sum, "other" (the box's other jobs) and how busy the box was.
 */
function cpuRows(phase: string, c: CpuPerUnit, unit: string): Row[] {
  console.log(`    ${describeCpu(c, unit)}`);
  const row = (group: string, value: number, digits = 3, u = 'ms'): Row => ({
    measure: `${CPU_PREFIX}${phase} (ms per ${unit})|${group}`,
    value,
    unit: u,
    digits,
  });
  return [
    ...CPU_GROUPS.map((g) => row(g, c.byGroup[g])),
    row('pipeline', c.pipeline),
    row('other', c.byGroup.other),
    row('box busy', c.busyPercent, 0, '%'),
  ];
}

/** Baseline: what kafkajs + pg alone do on this machine, batch for batch like the intake. */
async function baseline(ctx: RoundContext): Promise<Row[]> {
  const n = INTAKE_N;
  const dbName = benchDatabase('baseline');
  const db = await freshDatabase(dbName, TEMPLATE);
  const pool = benchPool(db, 4);
  const prefix = `bench-base-${ctx.tag}`;
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `${prefix}.g` });
  try {
    await pool.query('CREATE TABLE baseline (k text PRIMARY KEY, v jsonb)');
    await createTopics(env, [topicName(prefix, 'in'), topicName(prefix, 'out')]);
    await producer.connect();
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(prefix, 'in'), fromBeginning: true });
    let done = 0;
    const finished = new Promise<void>((resolveDone) => {
      void consumer.run({
        eachBatch: async (payload) => {
          const { batch } = payload;
          const keys = batch.messages.map((m) => m.key?.toString() ?? '');
          const vals = batch.messages.map((m) => m.value?.toString() ?? '{}');
          await pool.query(
            'INSERT INTO baseline SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT DO NOTHING',
            [keys, vals],
          );
          await producer.send({
            topic: topicName(prefix, 'out'),
            messages: batch.messages.map((m) => ({ key: m.key, value: m.value })),
          });
          const last = batch.messages[batch.messages.length - 1];
          if (last) payload.resolveOffset(last.offset);
          done += batch.messages.length;
          if (done >= n) resolveDone();
        },
      });
    });
    await waitGroup(kafka, `${prefix}.g`, 1);
    const msgs = Array.from({ length: n }, (_, i) => command(i, `base${ctx.round}`));
    const cpu = new CpuMeter({ databases: [dbName] });
    const t0 = performance.now();
    await produceAll(producer, topicName(prefix, 'in'), msgs);
    await withTimeout(finished, 120_000, `baseline: ${done} of ${n} messages`);
    const rate = n / ((performance.now() - t0) / 1000);
    return [
      { measure: M.baseline, value: rate, unit: 'msg/s' },
      ...cpuRows('baseline', cpu.perUnit(n), 'message'),
    ];
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await pool.end();
    await dropDatabase(dbName);
    await deleteTopics(kafka, prefix);
  }
}

async function raw(ctx: RoundContext): Promise<Row[]> {
  let cpu: CpuMeter | undefined;
  let used: CpuPerUnit | undefined;
  const rate = await rawPipeline(E2E_N, {
    onLoad: (seen) => {
      if (seen === undefined)
        cpu = new CpuMeter({ sandbox: ctx.sandboxPid, databases: [benchDatabase('raw')] });
      else used = cpu?.perUnit(seen);
    },
    kafka,
    sandboxUrl: ctx.sandboxUrl,
    template: TEMPLATE,
    partitionsConcurrently: PARTITIONS,
    connections: 128,
    run: ctx.tag,
    command: (i, tag) => command(i, `${tag}${ctx.round}`),
    ensureTopics: (names) => createTopics(env, names),
  });
  await deleteTopics(kafka, `bench-raw-${ctx.tag}`);
  return [
    { measure: M.raw, value: rate, unit: 'payouts/s' },
    ...(used ? cpuRows('raw pipeline', used, 'payout') : []),
  ];
}

async function intake(ctx: RoundContext): Promise<Row[]> {
  const s = await startStack(env, {
    dbName: benchDatabase('intake'),
    prefix: `bench-intake-${ctx.tag}`,
    roles: ['intake'],
    sandboxUrl: ctx.sandboxUrl,
  });
  const pool = benchPool(s.dbUrl, 2);
  const producer = kafka.producer();
  try {
    await producer.connect();
    const msgs = Array.from({ length: INTAKE_N }, (_, i) => command(i, `in${ctx.round}`));
    const cpu = new CpuMeter({ services: s.services.map((x) => x.proc.pid), databases: [s.dbName] });
    const t0 = performance.now();
    await produceAll(producer, topicName(s.prefix, TOPICS.commands), msgs);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM payout');
      if (Number(rows[0]?.n) >= INTAKE_N) break;
      if (Date.now() > deadline)
        throw new Error(`intake: ${rows[0]?.n} of ${INTAKE_N} in the ledger after 120 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const rate = INTAKE_N / ((performance.now() - t0) / 1000);
    const used = cpu.perUnit(INTAKE_N);
    return [
      { measure: M.intake, value: rate, unit: 'cmd/s', target: { op: '>=', value: GOAL.intake } },
      ...ratio(ctx, M.intakeOfBaseline, rate, M.baseline, GOAL.intakeOfBaseline),
      ...cpuRows('intake', used, 'command'),
    ];
  } finally {
    await producer.disconnect();
    await pool.end();
    await s.stop();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`${what} after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

interface EndToEnd {
  readonly perSecond: number;
  /** One entry per service process: its resident memory once ready, before the load (MB). */
  readonly atRestMB: Array<number | undefined>;
  readonly latencies: number[];
  readonly completed: number;
  /** One entry per service process. */
  readonly memory: MemoryFigures[];
  /** CPU per payout of each process group over the measured load (warm-up left out). */
  readonly cpu: CpuPerUnit | undefined;
  /** WAL, ledger growth and Kafka log bytes per payout over the measured load. */
  readonly footprint: Footprint | undefined;
  readonly report?: string;
}

interface EndToEndOptions {
  /** Database suffix and topic prefix part. */
  readonly phase: string;
  /** SERVICE_ROLES of each process. */
  readonly roles: readonly string[];
  readonly n: number;
  /** Payouts per second; all at once if absent. */
  readonly rate?: number;
  /** Give up waiting for terminal events after this long (from the first command). */
  readonly timeoutMs: number;
  readonly profile?: { readonly dir: string; readonly sandboxPid: number | undefined };
  /** Payouts sent at `rate` first, right after the start, and left out of the figures. */
  readonly warmup?: number;
  /** Print where each payout's time went, stage by stage (from `state_history`), before the stack stops. */
  readonly stages?: boolean;
}

/**
 * Sends `n` payouts (all at once, or at `rate`/s) and times each from send to terminal event.
 * With `profile`, the (first) service runs under the CPU profiler and the probe, and `report` says
 * where the time went.
 */
async function endToEnd(ctx: RoundContext, o: EndToEndOptions): Promise<EndToEnd> {
  const { profile, n, rate } = o;
  const s = await startStack(env, {
    dbName: benchDatabase(o.phase),
    prefix: `${process.env['BENCH_TOPIC_PREFIX'] ?? ''}bench-${o.phase}-${ctx.tag}`,
    roles: o.roles,
    sandboxUrl: ctx.sandboxUrl,
    ...(profile ? { launch: profiledLaunch(profile.dir) } : {}),
  });
  const first = s.services[0];
  const session =
    profile && first
      ? new ProfileSession(profile.dir, first.proc, s.dbUrl, first.url, ctx.sandboxUrl, profile.sandboxPid)
      : undefined;
  const sentAt = new Map<string, number>();
  const warmSentAt = new Map<string, number>();
  const warmLatencies: number[] = [];
  const timesOf = new Map<string, { sent: number; received: number }>();
  const latencies: number[] = [];
  const consumer = kafka.consumer({ groupId: `${s.prefix}.observer` });
  const producer = kafka.producer();
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(s.prefix, TOPICS.events), fromBeginning: true });
    let last = 0;
    const finished = new Promise<void>((resolveDone) => {
      void consumer.run({
        eachBatch: async ({ batch }) => {
          const now = performance.now();
          for (const m of batch.messages) {
            const e = JSON.parse(m.value?.toString() ?? '{}') as {
              subject: string;
              data: { status: string };
            };
            if (e.data.status !== 'SUCCESS' && e.data.status !== 'FAILED') continue;
            const w = warmSentAt.get(e.subject);
            if (w !== undefined) {
              warmSentAt.delete(e.subject);
              warmLatencies.push(now - w);
              continue;
            }
            const t = sentAt.get(e.subject);
            if (t === undefined) continue;
            sentAt.delete(e.subject);
            if (o.stages) timesOf.set(e.subject, { sent: t, received: now });
            latencies.push(now - t);
            last = now;
          }
          if (latencies.length >= n) resolveDone();
          return Promise.resolve();
        },
      });
    });
    await waitGroup(kafka, `${s.prefix}.observer`, 1);
    // BENCH_FUNDS_HOLD=1: a held account sends nothing before its first reading.
    await waitFirstReading(s.dbUrl);
    await session?.idle();
    await new Promise((r) => setTimeout(r, 2000));
    await producer.connect();
    const topic = topicName(s.prefix, TOPICS.commands);
    /** Sends `msgs` all at once, or at `perSecond` from `start`, noting each one's send time in `into`. */
    const send = async (
      msgs: Array<{ key: string; value: string }>,
      into: Map<string, number>,
      perSecond: number | undefined,
      start: number,
    ): Promise<void> => {
      if (perSecond === undefined) {
        for (let i = 0; i < msgs.length; i += 500) {
          const chunk = msgs.slice(i, i + 500);
          const now = performance.now();
          for (const m of chunk) into.set(m.key, now);
          await producer.send({ topic, messages: chunk });
        }
        return;
      }
      const tick = 50;
      const perTick = Math.max(1, Math.round((perSecond * tick) / 1000));
      for (let i = 0; i < msgs.length; i += perTick) {
        const due = start + (i / perSecond) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const chunk = msgs.slice(i, i + perTick);
        const now = performance.now();
        for (const m of chunk) into.set(m.key, now);
        await producer.send({ topic, messages: chunk });
      }
    };
    if (o.warmup && rate !== undefined) {
      // The same rate first, excluded from the figures: a service that just started runs cold
      // (code not yet optimised, pool and provider connections opening) for its first seconds.
      const warm = Array.from({ length: o.warmup }, (_, i) => command(i, `${o.phase}${ctx.round}w`));
      await send(warm, warmSentAt, rate, performance.now());
      // Every warm-up payout terminal (or a minute), so none of them is still in the pipeline.
      const until = performance.now() + 60_000;
      while (warmSentAt.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
      warmLatencies.sort((a, b) => a - b);
      console.log(
        `    warm-up (${fmt(warmLatencies.length)} of ${fmt(o.warmup)} payouts at ${fmt(rate)}/s, right after the start; not in the figures): p50 ${fmt(percentile(warmLatencies, 50))} ms, p99 ${fmt(percentile(warmLatencies, 99))} ms`,
      );
      await new Promise((r) => setTimeout(r, 1000));
    }
    const msgs = Array.from({ length: n }, (_, i) => command(i, `${o.phase}${ctx.round}`));
    await session?.begin();
    const meter = new CpuMeter({
      services: s.services.map((x) => x.proc.pid),
      sandbox: ctx.sandboxPid,
      databases: [s.dbName],
    });
    const footprint = await FootprintMeter.start(s.dbUrl);
    const t0 = performance.now();
    await send(msgs, sentAt, rate, t0);
    const waitMs = Math.max(1000, o.timeoutMs - (performance.now() - t0));
    await Promise.race([finished, new Promise((r) => setTimeout(r, waitMs))]);
    const cpu = latencies.length > 0 ? meter.perUnit(latencies.length) : undefined;
    const written = await footprint.finish(Math.max(1, latencies.length), KAFKA_LOG_DIR, s.prefix);
    await session?.finish();
    const perSecond = latencies.length / ((last - t0) / 1000);
    const memory = await s.stopServices();
    if (o.stages) console.log(await stageBreakdown(s.dbUrl, timesOf));
    const holdCheck = await fundsHoldCheck(s.dbUrl, n);
    if (holdCheck !== '') console.log(`    ${holdCheck}`);
    const report = await session?.report(latencies.length, perSecond);
    return {
      perSecond,
      latencies: latencies.sort((a, b) => a - b),
      completed: latencies.length,
      atRestMB: s.services.map((x) => x.atRestMB),
      memory,
      cpu,
      footprint: latencies.length > 0 ? written : undefined,
      ...(report ? { report } : {}),
    };
  } finally {
    await producer.disconnect();
    await consumer.disconnect();
    await s.stop();
  }
}

/** A burst phase (all payouts at once) must complete: its rate would mean nothing otherwise. */
async function burst(ctx: RoundContext, o: Omit<EndToEndOptions, 'n' | 'timeoutMs'>): Promise<EndToEnd> {
  const r = await endToEnd(ctx, { ...o, n: E2E_N, timeoutMs: 120_000 });
  if (r.completed < E2E_N)
    throw new Error(`${o.phase}: ${r.completed} of ${E2E_N} payouts terminal within 120 s`);
  return r;
}

/** Each process's resident memory once ready (before the load) and at its peak. */
function printMemory(r: EndToEnd): void {
  const each = r.memory.map((m, i) => {
    const rest = r.atRestMB[i];
    return `${rest === undefined ? '?' : fmt(rest)} MB when ready, peak ${fmt(m.peakRssMB)} MB`;
  });
  console.log(`    RSS per process: ${each.join('; ')}`);
}

const latencyRows = (l: number[], label: (p: number) => string, p99Target?: number): Row[] =>
  [50, 95, 99].map((p) => ({
    measure: label(p),
    value: percentile(l, p),
    unit: 'ms',
    ...(p === 99 && p99Target !== undefined ? { target: { op: '<' as const, value: p99Target } } : {}),
  }));

async function e2eOne(ctx: RoundContext): Promise<Row[]> {
  const profile =
    PROFILE && ctx.round === 0 ? { dir: profileDir(run), sandboxPid: ctx.sandboxPid } : undefined;
  if (profile) console.log(`    (profiling the service into ${profile.dir})`);
  const r = await burst(ctx, { phase: 'e2e', roles: [PIPELINE_ROLES], ...(profile ? { profile } : {}) });
  printMemory(r);
  if (profile) {
    const report = `${r.report ?? ''}\n`;
    writeFileSync(resolve(profile.dir, 'report.md'), report);
    profileReport = report;
  }
  return [
    { measure: M.e2e, value: r.perSecond, unit: 'payouts/s', target: { op: '>=', value: GOAL.endToEnd } },
    ...ratio(ctx, M.e2eOfRaw, r.perSecond, M.raw, GOAL.endToEndOfRaw),
    ...latencyRows(r.latencies, M.burst),
    ...memoryRows(r.memory[0], M.e2eRss, M.e2eHwm),
    ...(r.cpu
      ? [
          cpuGoal(M.e2eCpuPipeline, r.cpu.pipeline, GOAL.cpuPipelineMs),
          cpuGoal(M.e2eCpuService, r.cpu.byGroup.service, GOAL.cpuServiceMs),
          cpuGoal(M.e2eCpuPostgres, r.cpu.byGroup.postgres, GOAL.cpuPostgresMs),
          ...cpuRows('end to end, one instance', r.cpu, 'payout'),
        ]
      : []),
    ...(r.footprint ? footprintRows(r.footprint) : []),
  ];
}

/** The capacity model's inputs (docs/SCALING.md), per payout of the one-instance burst. */
const footprintRows = (f: Footprint): Row[] => [
  { measure: M.e2eWal, value: f.walBytes, unit: 'B' },
  { measure: M.e2eLedger, value: f.ledgerBytes, unit: 'B' },
  ...(f.kafkaBytes === undefined || Number.isNaN(f.kafkaBytes)
    ? []
    : [{ measure: M.e2eKafka, value: f.kafkaBytes, unit: 'B' } as Row]),
];

const cpuGoal = (measure: string, value: number, goal: number): Row => ({
  measure,
  value,
  unit: 'ms',
  digits: 3,
  target: { op: '<=', value: goal },
});

async function e2eTwo(ctx: RoundContext, phase: 'two' | 'split'): Promise<Row[]> {
  const roles = phase === 'two' ? [PIPELINE_ROLES, PIPELINE_ROLES] : SPLIT_ROLES;
  const r = await burst(ctx, { phase, roles });
  printMemory(r);
  return [
    {
      measure: phase === 'two' ? M.two : M.split,
      value: r.perSecond,
      unit: 'payouts/s',
    },
    ...ratio(ctx, phase === 'two' ? M.twoOfOne : M.splitOfOne, r.perSecond, M.e2e, GOAL.twoOfOne),
    ...(r.cpu ? cpuRows(phase === 'two' ? 'two instances' : 'roles split', r.cpu, 'payout') : []),
  ];
}

async function steady(ctx: RoundContext, rate: number): Promise<Row[]> {
  const n = Math.round(rate * STEADY_SECONDS);
  const r = await endToEnd(ctx, {
    phase: `steady${rate}`,
    stages: true,
    warmup: Math.round(rate * STEADY_WARMUP_SECONDS),
    roles: [PIPELINE_ROLES],
    n,
    rate,
    timeoutMs: STEADY_SECONDS * 1000 + 60_000,
  });
  printMemory(r);
  return [
    ...latencyRows(r.latencies, M.steady(rate), GOAL.steadyP99Ms(rate)),
    { measure: M.steadyDone(rate), value: r.completed, unit: '', target: { op: '>=', value: n } },
    ...memoryRows(r.memory[0], M.steadyRss(rate), M.steadyHwm(rate)),
    ...(r.cpu ? cpuRows(`steady ${fmt(rate)}/s`, r.cpu, 'payout') : []),
  ];
}

interface Phase {
  readonly id: PhaseId;
  readonly title: string;
  readonly run: (ctx: RoundContext) => Promise<Row[]>;
}

const PHASES: Phase[] = [
  { id: 'baseline', title: `baseline: ${fmt(INTAKE_N)} messages`, run: baseline },
  { id: 'raw', title: `raw pipeline: ${fmt(E2E_N)} payouts`, run: raw },
  { id: 'intake', title: `intake: ${fmt(INTAKE_N)} commands`, run: intake },
  { id: 'e2e', title: `end to end, one instance: ${fmt(E2E_N)} payouts`, run: e2eOne },
  { id: 'two', title: `end to end, two instances: ${fmt(E2E_N)} payouts`, run: (c) => e2eTwo(c, 'two') },
  { id: 'split', title: `end to end, roles split: ${fmt(E2E_N)} payouts`, run: (c) => e2eTwo(c, 'split') },
  ...STEADY_RATES.map((rate) => ({
    id: 'steady' as const,
    title: `steady: ${fmt(Math.round(rate * STEADY_SECONDS))} payouts at ${fmt(rate)}/s`,
    run: (c: RoundContext) => steady(c, rate),
  })),
  ...extraPhases.map((fn, i) => ({
    id: 'extra' as const,
    title: `extra phase ${i + 1}${fn.name ? ` (${fn.name})` : ''}`,
    run: fn,
  })),
];

let profileReport: string | undefined;

const started = Date.now();
function progress(text: string): void {
  const s = Math.round((Date.now() - started) / 1000);
  const clock = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  console.log(`[${clock}] ${text}`);
}

function describeRow(r: Row): string {
  const v = r.digits ? r.value.toFixed(r.digits) : fmt(r.value);
  return `${r.measure}: ${r.unit === 'x' ? `${v}x` : `${v} ${r.unit}`.trim()}`;
}

/** The commit measured, and whether the work tree differs from it (docs/BENCHMARKS.md aside). */
function measuredCode(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const sha = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no')
      .split('\n')
      .filter((l) => l !== '' && !l.endsWith('docs/BENCHMARKS.md'));
    return dirty.length > 0 ? `commit \`${sha}\` with uncommitted changes` : `commit \`${sha}\``;
  } catch {
    return 'this code (no git)';
  }
}

function record(table: string, loads: readonly number[], minutes: number): void {
  const phases = PHASES.map((p) => p.id).filter((id, i, all) => all.indexOf(id) === i);
  const section = [
    '<!-- bench:pipeline:start -->',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${measuredCode()} with \`npm run bench\` on this machine (2 cores, everything co-located: Kafka, Postgres, the sandbox at zero latency; the service at \`LOG_LEVEL=warn\`).`,
    `Each line is the median of ${RUNS} runs, its spread (min–max) and the runs' figures in order. The runs are rounds: the whole sequence (${phases.join(', ')}) ran once per round, ${RUNS} rounds one after the other (${minutes.toFixed(1)} min in all), so one measure's runs are minutes apart, not back to back. Ratios are taken within a round, then their median. Load average (1 min) at the start of each round: ${loads.map((l) => l.toFixed(1)).join(', ')}.`,
    '',
    table,
    '<!-- bench:pipeline:end -->',
  ].join('\n');
  const file = resolve(ROOT, 'docs/BENCHMARKS.md');
  const doc = readFileSync(file, 'utf8');
  const re = /<!-- bench:pipeline:start -->[\s\S]*<!-- bench:pipeline:end -->/;
  writeFileSync(
    file,
    re.test(doc)
      ? doc.replace(re, section)
      : `${doc.trimEnd()}\n\n## Pipeline (\`npm run bench\`)\n\n<!-- prettier-ignore-start -->\n${section}\n<!-- prettier-ignore-end -->\n`,
  );
  console.log(`recorded in docs/BENCHMARKS.md (database base ${new URL(BASE_URL).pathname.slice(1)}_*)`);
}

async function main(): Promise<void> {
  const unknown = ONLY?.filter((id) => !(PHASE_IDS as readonly string[]).includes(id)) ?? [];
  if (unknown.length > 0)
    throw new Error(`BENCH_PHASES: unknown ${unknown.join(', ')}; known: ${PHASE_IDS.join(', ')}`);
  const phases = PHASES.filter((p) => ONLY === undefined || ONLY.includes(p.id));
  console.log(
    `${RUNS} round(s) of: ${phases.map((p) => p.id).join(', ')}; run ${run}; databases ${new URL(BASE_URL).pathname.slice(1)}_*; ${describeFundsHold()}`,
  );
  // Service processes inherit this environment (startNode): they trace and export to the sink.
  const sink = TRACING ? await startOtlpSink() : undefined;
  if (sink) {
    process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = sink.url;
    console.log(`tracing on: OTLP/HTTP to a discarding sink at ${sink.url}`);
  }
  await migratedTemplate(TEMPLATE);
  const results = new Results(RUNS);
  const failures: string[] = [];
  const loads: number[] = [];
  try {
    for (let round = 0; round < RUNS; round++) {
      const load = loadavg()[0] ?? 0;
      loads.push(load);
      progress(`round ${round + 1} of ${RUNS} (load average ${load.toFixed(1)})`);
      const sandbox = await startBenchSandbox();
      const ctx: RoundContext = {
        round,
        runs: RUNS,
        tag: `${run}r${round}`,
        sandboxUrl: sandbox.url,
        sandboxPid: sandbox.pid,
        env,
        results,
      };
      try {
        for (const phase of phases) {
          progress(`  ${phase.title}...`);
          const t = performance.now();
          try {
            const rows = await phase.run(ctx);
            results.add(round, rows);
            for (const r of rows) console.log(`    ${describeRow(r)}`);
            console.log(`    (${((performance.now() - t) / 1000).toFixed(1)} s)`);
          } catch (e) {
            failures.push(`round ${round + 1}, ${phase.id}`);
            console.error(`    FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          }
        }
      } finally {
        await sandbox.stop();
        await deleteTopics(kafka, ctx.tag);
      }
    }
  } finally {
    await dropDatabase(TEMPLATE);
    if (sink) {
      console.log(`OTLP sink: ${sink.requests} exports, ${(sink.bytes / 1e6).toFixed(1)} MB`);
      await sink.close();
    }
  }
  const minutes = (Date.now() - started) / 60_000;
  const table = `${markdown(results)}\n\n${cpuMarkdown(results)}`;
  console.log(`\n${table}\n`);
  progress(`done in ${minutes.toFixed(1)} min`);
  if (profileReport !== undefined) {
    console.log(`### Where the time goes (end-to-end phase)\n\n${profileReport}`);
    console.log(`profile mode: docs/BENCHMARKS.md left as it is; report in ${profileDir(run)}/report.md`);
  }
  if (failures.length > 0) {
    console.error(`failed: ${failures.join('; ')}; docs/BENCHMARKS.md left as it is`);
    process.exitCode = 1;
    return;
  }
  if (RECORD) record(table, loads, minutes);
  else console.log('docs/BENCHMARKS.md left as it is (BENCH_RECORD=0, BENCH_PHASES or BENCH_PROFILE)');
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
