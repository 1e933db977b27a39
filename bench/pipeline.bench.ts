/**
 * `npm run bench`: payouts through the whole stack on this machine (Kafka, Postgres, the
 * provider sandbox at zero latency, one service instance), next to a baseline of plain kafkajs
 * consume -> one multi-row Postgres insert -> produce. Prints and records in docs/BENCHMARKS.md:
 *   - baseline messages/s;
 *   - intake: commands/s into the ledger (intake role only);
 *   - end to end: payouts/s from command to terminal event, and p50/p95/p99 latency;
 *   - latency at a steady 200 payouts/s.
 * Knobs: BENCH_INTAKE_N (20000), BENCH_E2E_N (10000), BENCH_STEADY_RATE (200), BENCH_STEADY_SECONDS (15).
 * BENCH_PROFILE=1: the end-to-end phase's service runs under `node --cpu-prof` with a counting probe,
 * and the bench prints where its time goes (bench/profile-run.ts) instead of updating the table in
 * docs/BENCHMARKS.md (the profiler slows the service down).
 */
import { type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';
import { type Launch, PROFILE, profileDir, profiledLaunch, ProfileSession } from './profile-run.js';
import { rawPipeline } from './raw-pipeline.js';
import {
  BASE_URL,
  benchDatabase,
  benchPool,
  dropDatabase,
  freePort,
  freshDatabase,
  migratedTemplate,
  percentile,
  ROOT,
  startNode,
  stopNode,
  waitHttp,
} from './support.js';

const INTAKE_N = Number(process.env['BENCH_INTAKE_N'] ?? 20_000);
const E2E_N = Number(process.env['BENCH_E2E_N'] ?? 10_000);
const STEADY_RATE = Number(process.env['BENCH_STEADY_RATE'] ?? 200);
const STEADY_SECONDS = Number(process.env['BENCH_STEADY_SECONDS'] ?? 15);
const BROKERS = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const TEMPLATE = benchDatabase('template');
const PARTITIONS = 6;
const kafka = new Kafka({ clientId: 'bench', brokers: BROKERS, logLevel: logLevel.NOTHING });
const run = Date.now().toString(36);

function command(i: number, tag: string): { key: string; value: string } {
  const transferId = `${tag}_${run}_${i}`;
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

async function topics(prefix: string, extra: string[] = []): Promise<void> {
  await ensureTopics(
    kafka,
    [...Object.values(TOPICS), ...extra].map((t) => ({
      topic: topicName(prefix, t),
      numPartitions: PARTITIONS,
    })),
  );
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

/** Baseline: what kafkajs + pg alone do on this machine, batch for batch like the intake. */
async function baseline(n: number): Promise<number> {
  const db = await freshDatabase(benchDatabase('baseline'), TEMPLATE);
  const pool = benchPool(db, 4);
  await pool.query('CREATE TABLE baseline (k text PRIMARY KEY, v jsonb)');
  const prefix = `bench-base-${run}`;
  await topics(prefix, ['in', 'out']);
  const producer = kafka.producer();
  await producer.connect();
  const consumer = kafka.consumer({ groupId: `${prefix}.g` });
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
  await new Promise((r) => setTimeout(r, 2000));
  const msgs = Array.from({ length: n }, (_, i) => command(i, 'base'));
  const t0 = performance.now();
  await produceAll(producer, topicName(prefix, 'in'), msgs);
  await finished;
  const rate = n / ((performance.now() - t0) / 1000);
  await consumer.disconnect();
  await producer.disconnect();
  await pool.end();
  await dropDatabase(benchDatabase('baseline'));
  return rate;
}

interface Stack {
  dbUrl: string;
  prefix: string;
  url: string;
  svc: ChildProcess;
  /** Stops the service, keeping its database. */
  stopService(): Promise<void>;
  stop(): Promise<void>;
}

async function stack(
  name: string,
  roles: string,
  sandboxUrl: string,
  launch: Launch = { nodeArgs: [], env: {} },
): Promise<Stack> {
  const dbUrl = await freshDatabase(name, TEMPLATE);
  const prefix = `bench-${name}-${run}`;
  await topics(prefix);
  const port = await freePort();
  const svc = startNode(
    'dist/apps/payout-service/src/main.js',
    {
      DATABASE_URL: dbUrl,
      DATABASE_POOL_SIZE: '20',
      KAFKA_BROKERS: BROKERS.join(','),
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_CLIENT_ID: prefix,
      HTTP_PORT: String(port),
      LOG_LEVEL: 'warn',
      SERVICE_ROLES: roles,
      PROVIDER_BASE_URL: sandboxUrl,
      PROVIDER_PAYOUT_URL: sandboxUrl,
      // Production defaults are the provider's published limits (~150/s); the sandbox has none here.
      PROVIDER_RATE_TRANSFER_PER_MIN: '600000',
      PROVIDER_RATE_STATUS_PER_MIN: '600000',
      EXECUTOR_CONCURRENCY: '128',
      EXECUTOR_IDLE_POLL_MS: '20',
      OUTBOX_POLL_INTERVAL_MS: '200',
      ...launch.env,
    },
    launch.nodeArgs,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/health/ready`);
  return {
    dbUrl,
    prefix,
    url,
    svc,
    // A profiled service writes its profile on the way out: give it time to.
    stopService: () => stopNode(svc, launch.nodeArgs.length > 0 ? 60_000 : 10_000),
    async stop() {
      await stopNode(svc);
      await dropDatabase(name);
    },
  };
}

async function intake(sandboxUrl: string): Promise<number> {
  const s = await stack(benchDatabase('intake'), 'intake', sandboxUrl);
  const pool = benchPool(s.dbUrl, 2);
  const producer = kafka.producer();
  await producer.connect();
  const msgs = Array.from({ length: INTAKE_N }, (_, i) => command(i, 'in'));
  const t0 = performance.now();
  await produceAll(producer, topicName(s.prefix, TOPICS.commands), msgs);
  for (;;) {
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM payout');
    if (Number(rows[0]?.n) >= INTAKE_N) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const rate = INTAKE_N / ((performance.now() - t0) / 1000);
  await producer.disconnect();
  await pool.end();
  await s.stop();
  return rate;
}

interface ProfileTarget {
  readonly dir: string;
  readonly sandboxPid: number | undefined;
}

/**
 * Sends `n` payouts (all at once, or at `rate`/s) and times each from send to terminal event.
 * With `profile`, the service runs under the CPU profiler and the probe, and `report` says where
 * the time went.
 */
async function endToEnd(
  name: string,
  sandboxUrl: string,
  n: number,
  rate?: number,
  profile?: ProfileTarget,
): Promise<{ perSecond: number; latencies: number[]; report?: string }> {
  const s = await stack(
    name,
    'intake,executor,reconciler,relay',
    sandboxUrl,
    profile ? profiledLaunch(profile.dir) : undefined,
  );
  const session = profile
    ? new ProfileSession(profile.dir, s.svc, s.dbUrl, s.url, sandboxUrl, profile.sandboxPid)
    : undefined;
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const consumer = kafka.consumer({ groupId: `${s.prefix}.observer` });
  await consumer.connect();
  await consumer.subscribe({ topic: topicName(s.prefix, TOPICS.events), fromBeginning: true });
  let last = 0;
  const finished = new Promise<void>((resolveDone) => {
    void consumer.run({
      eachBatch: async ({ batch }) => {
        const now = performance.now();
        for (const m of batch.messages) {
          const e = JSON.parse(m.value?.toString() ?? '{}') as { subject: string; data: { status: string } };
          if (e.data.status !== 'SUCCESS' && e.data.status !== 'FAILED') continue;
          const t = sentAt.get(e.subject);
          if (t === undefined) continue;
          sentAt.delete(e.subject);
          latencies.push(now - t);
          last = now;
        }
        if (latencies.length >= n) resolveDone();
      },
    });
  });
  await session?.idle();
  await new Promise((r) => setTimeout(r, 2000));
  const producer = kafka.producer();
  await producer.connect();
  const topic = topicName(s.prefix, TOPICS.commands);
  const msgs = Array.from({ length: n }, (_, i) => command(i, name.slice(-4)));
  await session?.begin();
  const t0 = performance.now();
  if (rate === undefined) {
    for (let i = 0; i < n; i += 500) {
      const chunk = msgs.slice(i, i + 500);
      const now = performance.now();
      for (const m of chunk) sentAt.set(m.key, now);
      await producer.send({ topic, messages: chunk });
    }
  } else {
    const tick = 50;
    const perTick = Math.max(1, Math.round((rate * tick) / 1000));
    for (let i = 0; i < n; i += perTick) {
      const due = t0 + (i / rate) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const chunk = msgs.slice(i, i + perTick);
      const now = performance.now();
      for (const m of chunk) sentAt.set(m.key, now);
      await producer.send({ topic, messages: chunk });
    }
  }
  await Promise.race([finished, new Promise((r) => setTimeout(r, 180_000))]);
  await session?.finish();
  const perSecond = latencies.length / ((last - t0) / 1000);
  await producer.disconnect();
  await consumer.disconnect();
  await s.stopService();
  const report = await session?.report(latencies.length, perSecond);
  await s.stop();
  return { perSecond, latencies: latencies.sort((a, b) => a - b), ...(report ? { report } : {}) };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

async function main(): Promise<void> {
  await migratedTemplate(TEMPLATE);
  const sandboxPort = await freePort();
  const sandbox = startNode('dist/apps/provider-sandbox/src/main.js', {
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_LOG_LEVEL: 'warn',
    SANDBOX_INITIAL_BALANCE: '9999999999999.00',
    SANDBOX_RATE_LIMIT_TRANSFER: '0',
    SANDBOX_RATE_LIMIT_STATUS: '0',
    SANDBOX_RATE_LIMIT_AUTHORIZE: '0',
    SANDBOX_RATE_LIMIT_OTHER: '0',
  });
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  await waitHttp(`${sandboxUrl}/__sandbox/clock`);
  try {
    console.log(`baseline: ${INTAKE_N} messages...`);
    const base = await baseline(INTAKE_N);
    console.log(`raw pipeline: ${E2E_N} payouts...`);
    const raw = await rawPipeline(E2E_N, {
      kafka,
      sandboxUrl,
      template: TEMPLATE,
      partitionsConcurrently: PARTITIONS,
      connections: 128,
      run,
      command,
      ensureTopics: (names) =>
        ensureTopics(
          kafka,
          names.map((topic) => ({ topic, numPartitions: PARTITIONS })),
        ),
    });
    console.log(`intake: ${INTAKE_N} commands...`);
    const intakeRate = await intake(sandboxUrl);
    console.log(`end to end: ${E2E_N} payouts...`);
    const profile = PROFILE ? { dir: profileDir(run), sandboxPid: sandbox.pid } : undefined;
    if (profile) console.log(`  (profiling the service into ${profile.dir})`);
    const burst = await endToEnd(benchDatabase('e2e'), sandboxUrl, E2E_N, undefined, profile);
    const steadyN = STEADY_RATE * STEADY_SECONDS;
    console.log(`steady: ${steadyN} payouts at ${STEADY_RATE}/s...`);
    const steady = await endToEnd(benchDatabase('steady'), sandboxUrl, steadyN, STEADY_RATE);
    const p = (l: number[], q: number) => `${fmt(percentile(l, q))} ms`;
    const rows = [
      ['measure', 'result', 'target'],
      ['baseline: kafkajs consume -> 1 pg insert per batch -> produce', `${fmt(base)} msg/s`, ''],
      [
        'intake: commands into the ledger (+ accepted events in the outbox)',
        `${fmt(intakeRate)} cmd/s (${(intakeRate / base).toFixed(2)}x baseline)`,
        '>= 10,000/s',
      ],
      [
        `end to end: ${fmt(E2E_N)} payouts, command -> terminal event`,
        `${fmt(burst.perSecond)} payouts/s (${(burst.perSecond / base).toFixed(2)}x baseline)`,
        '>= 1,000/s',
      ],
      [
        'raw pipeline: consume -> insert -> 1 HTTP call each -> update -> produce (no ledger logic)',
        `${fmt(raw)} payouts/s`,
        '',
      ],
      ['  end to end / raw pipeline', `${(burst.perSecond / raw).toFixed(2)}`, '>= 0.6'],
      [
        '  latency at that burst p50 / p95 / p99',
        `${p(burst.latencies, 50)} / ${p(burst.latencies, 95)} / ${p(burst.latencies, 99)}`,
        '',
      ],
      [
        `steady ${STEADY_RATE} payouts/s for ${STEADY_SECONDS}s: p50 / p95 / p99`,
        `${p(steady.latencies, 50)} / ${p(steady.latencies, 95)} / ${p(steady.latencies, 99)}`,
        'p99 < 250 ms',
      ],
      ['  payouts completed', `${fmt(steady.latencies.length)} / ${fmt(steadyN)}`, ''],
    ];
    const md = rows.map((r, i) => `| ${r.join(' | ')} |${i === 0 ? '\n| --- | --- | --- |' : ''}`).join('\n');
    console.log(`\n${md}\n`);
    if (profile) {
      const report = `${burst.report ?? ''}\n`;
      writeFileSync(resolve(profile.dir, 'report.md'), report);
      console.log(`### Where the time goes (end-to-end phase)\n\n${report}`);
      console.log(`profile mode: docs/BENCHMARKS.md left as it is; report in ${profile.dir}/report.md`);
      return;
    }
    const section = `<!-- bench:pipeline:start -->\nMeasured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` on this machine (2 cores, everything co-located: Kafka, Postgres, sandbox at zero latency, one service instance).\n\n${md}\n<!-- bench:pipeline:end -->`;
    const file = resolve(ROOT, 'docs/BENCHMARKS.md');
    const doc = readFileSync(file, 'utf8');
    const re = /<!-- bench:pipeline:start -->[\s\S]*<!-- bench:pipeline:end -->/;
    writeFileSync(
      file,
      re.test(doc)
        ? doc.replace(re, section)
        : `${doc.trimEnd()}\n\n## Pipeline (\`npm run bench\`)\n\n${section}\n`,
    );
    console.log(`recorded in docs/BENCHMARKS.md (database base ${new URL(BASE_URL).pathname.slice(1)}_*)`);
  } finally {
    await stopNode(sandbox);
    await dropDatabase(TEMPLATE);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
