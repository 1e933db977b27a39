/**
 * `npm run bench:rate`: the provider's rate limit shared by two service instances (issue 12,
 * "Provider limits"). The sandbox enforces the provider's transfer limit as the provider does
 * (9,000/min per account and endpoint, fixed one-minute windows); two service processes on one
 * database and one consumer group get enough direct transfers to saturate it for BENCH_RATE_SECONDS.
 * Reported, from the sandbox's own receive times: transfers sent per minute over the saturated
 * window and its ratio to the limit, the most sent in any 60 s, and the 429s (the sandbox's
 * refusals and the services' `payouts_provider_rate_limited_total`). The goal: within 2 % under
 * the limit, no 429.
 *
 * Knobs: BENCH_RATE_LIMIT (9000 per minute), BENCH_RATE_SECONDS (60), BENCH_RATE_FRACTION (the
 * service's PROVIDER_RATE_TARGET_FRACTION, 0.99), BENCH_RATE_INSTANCES (2), BENCH_RATE_BUDGET
 * (postgres; `memory` shows what happens without sharing), BENCH_RATE_DUMP (a file for every
 * receive time and the services' counters). `runRateLimitBench()` is what `npm run bench` can
 * call; `formatRateLimitBench()` renders its table.
 */
import { type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';
import {
  benchDatabase,
  benchPool,
  directTransferCommand,
  dropDatabase,
  freePort,
  freshDatabase,
  migratedTemplate,
  startNode,
  stopNode,
  waitHttp,
} from './support.js';

export interface RateLimitBenchOptions {
  /** The provider's transfer limit per minute (the sandbox enforces it). */
  readonly limitPerMin?: number;
  /** How long the backlog keeps the limit saturated. */
  readonly seconds?: number;
  /** PROVIDER_RATE_TARGET_FRACTION of the services. */
  readonly fraction?: number;
  readonly instances?: number;
  readonly budget?: 'postgres' | 'memory';
  readonly brokers?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface RateLimitBenchResult {
  readonly limitPerMin: number;
  readonly fraction: number;
  readonly instances: number;
  readonly budget: string;
  readonly commands: number;
  /** Transfers the sandbox accepted. */
  readonly sent: number;
  /** Sent per minute over the saturated window (backlog all in the ledger; the last 5 % left out). */
  readonly perMinute: number;
  /** perMinute / limitPerMin. */
  readonly ratio: number;
  /** The most sends in any 60 s (the provider's window, wherever it falls). */
  readonly maxIn60s: number;
  /** Transfer calls per minute of each instance over the run (its share). */
  readonly perInstance: readonly number[];
  /** Calls the sandbox refused for the limit. */
  readonly refused429: number;
  /** 429s the services counted (payouts_provider_rate_limited_total). */
  readonly seen429: number;
  /** Reservations of the shared budget (statements) per transfer sent. */
  readonly reservationsPerSend: number;
  /** Reserved slots not used (a slot passed while a process could not run, a pause). */
  readonly slotsLost: number;
  readonly windowSeconds: number;
}

interface Received {
  readonly endpoint: string;
  readonly accepted: boolean;
  readonly at: number;
}

/** A metric's value from a service's /metrics, summed over the label sets that contain `labels`. */
async function metricSum(url: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '').includes(labels)) sum += Number(m[3]);
  }
  return sum;
}

const TRANSFER = 'endpoint="POST /payout/v1.2/directTransfer"';

export async function runRateLimitBench(o: RateLimitBenchOptions = {}): Promise<RateLimitBenchResult> {
  const limitPerMin = o.limitPerMin ?? 9000;
  const seconds = o.seconds ?? 60;
  const fraction = o.fraction ?? 0.99;
  const instances = o.instances ?? 2;
  const budget = o.budget ?? 'postgres';
  const brokers = o.brokers ?? ['127.0.0.1:9092'];
  const log = o.log ?? ((l: string) => console.log(l));
  const run = Date.now().toString(36);
  const template = benchDatabase('rate_template');
  const dbName = benchDatabase('rate');
  // The backlog lasts `seconds` at the target rate, plus a few seconds for the start.
  const commands = Math.ceil(((limitPerMin * fraction) / 60) * (seconds + 3));

  const kafka = new Kafka({
    clientId: `bench-rate-${run}`,
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
  });
  const prefix = `bench-rate-${run}`;
  const children: ChildProcess[] = [];
  try {
    await migratedTemplate(template);
    const dbUrl = await freshDatabase(dbName, template);
    await ensureTopics(
      kafka,
      Object.values(TOPICS).map((t) => ({ topic: topicName(prefix, t), numPartitions: 6 })),
    );
    const sandboxPort = await freePort();
    const sandbox = startNode('dist/apps/provider-sandbox/src/main.js', {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_INITIAL_BALANCE: '9999999999999.00',
      // The provider's limit and window: only transfers are the subject here.
      SANDBOX_RATE_LIMIT_TRANSFER: String(limitPerMin),
      SANDBOX_RATE_WINDOW_MS: '60000',
      SANDBOX_RATE_LIMIT_STATUS: '0',
      SANDBOX_RATE_LIMIT_AUTHORIZE: '0',
      SANDBOX_RATE_LIMIT_OTHER: '0',
    });
    children.push(sandbox);
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    await waitHttp(`${sandboxUrl}/__sandbox/clock`);

    const services: string[] = [];
    for (let i = 0; i < instances; i += 1) {
      const port = await freePort();
      children.push(
        startNode('dist/apps/payout-service/src/main.js', {
          DATABASE_URL: dbUrl,
          DATABASE_POOL_SIZE: '10',
          KAFKA_BROKERS: brokers.join(','),
          KAFKA_TOPIC_PREFIX: prefix,
          KAFKA_CLIENT_ID: `${prefix}-${i}`,
          HTTP_PORT: String(port),
          LOG_LEVEL: 'warn',
          PROVIDER_BASE_URL: sandboxUrl,
          PROVIDER_PAYOUT_URL: sandboxUrl,
          PROVIDER_RATE_TRANSFER_PER_MIN: String(limitPerMin),
          PROVIDER_RATE_TARGET_FRACTION: String(fraction),
          PROVIDER_RATE_BUDGET: budget,
          EXECUTOR_CONCURRENCY: '128',
          EXECUTOR_IDLE_POLL_MS: '20',
        }),
      );
      services.push(`http://127.0.0.1:${port}`);
    }
    for (const url of services) await waitHttp(`${url}/health/ready`, 60_000);

    log(
      `rate limit: ${commands} transfers, ${instances} instances (${budget} budget, aiming at ${fraction}), ` +
        `sandbox limit ${limitPerMin}/min...`,
    );
    const producer = kafka.producer();
    await producer.connect();
    const msgs = Array.from({ length: commands }, (_, i) => directTransferCommand(`rl_${run}_${i}`));
    for (let i = 0; i < msgs.length; i += 1000) {
      await producer.send({ topic: topicName(prefix, TOPICS.commands), messages: msgs.slice(i, i + 1000) });
    }
    await producer.disconnect();

    // The limit is saturated once the whole backlog is in the ledger (the intake, and the consumer
    // group settling on two members, take a few seconds on a loaded machine).
    const pool = benchPool(dbUrl, 1);
    let ingestedAt = Date.now();
    for (;;) {
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM payout');
      ingestedAt = Date.now();
      if (Number(rows[0]?.n) >= commands) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await pool.end();

    // Until every transfer is in, or (with 429s re-sent later) twice the expected time.
    const deadline = Date.now() + 2 * (seconds + 30) * 1000;
    let received: Received[] = [];
    for (;;) {
      await new Promise((r) => setTimeout(r, 2000));
      const body = (await (await fetch(`${sandboxUrl}/__sandbox/received`)).json()) as {
        initiations: Received[];
      };
      received = body.initiations.filter((r) => r.endpoint === 'directTransfer');
      if (received.filter((r) => r.accepted).length >= commands || Date.now() > deadline) break;
    }
    const summary = (await (await fetch(`${sandboxUrl}/__sandbox/received/summary`)).json()) as {
      rateLimited?: Record<string, number>;
    };
    const perService = await Promise.all(
      services.map(async (url) => ({
        sent: await metricSum(url, 'payouts_provider_request_duration_seconds_count', TRANSFER),
        seen429: await metricSum(url, 'payouts_provider_rate_limited_total'),
        reservations: await metricSum(url, 'payouts_provider_rate_budget_reservations_total'),
        empty: await metricSum(url, 'payouts_provider_rate_budget_reservations_total', 'result="empty"'),
        lost: await metricSum(url, 'payouts_provider_rate_budget_slots_total', 'outcome="lost"'),
        waitedUnder10ms: await metricSum(url, 'payouts_provider_rate_limit_wait_seconds_bucket', 'le="0.01"'),
        waitedUnder100ms: await metricSum(url, 'payouts_provider_rate_limit_wait_seconds_bucket', 'le="0.1"'),
        waits: await metricSum(url, 'payouts_provider_rate_limit_wait_seconds_count'),
      })),
    );

    if (process.env['BENCH_RATE_DUMP'])
      writeFileSync(process.env['BENCH_RATE_DUMP'], JSON.stringify({ received, perService }));
    const times = received
      .filter((r) => r.accepted)
      .map((r) => r.at)
      .sort((a, b) => a - b);
    // The saturated window: from the moment the whole backlog was in the ledger (the sandbox's
    // clock is this machine's: no offset in this run) to the last 5 % of the run (the tail).
    // Counted in fixed times, so one late send at an edge does not move the figure.
    const [first, last] = [times[0]!, times.at(-1)!];
    const from = Math.max(ingestedAt, first + (last - first) * 0.05);
    const to = last - (last - first) * 0.05;
    const span = (to - from) / 1000;
    const perMinute = (times.filter((t) => t >= from && t < to).length / span) * 60;
    let maxIn60s = 0;
    for (let i = 0, j = 0; i < times.length; i += 1) {
      while (times[i]! - times[j]! >= 60_000) j += 1;
      maxIn60s = Math.max(maxIn60s, i - j + 1);
    }
    const total = (times.at(-1)! - times[0]!) / 60_000;
    const sentTotal = perService.reduce((a, s) => a + s.sent, 0);
    return {
      limitPerMin,
      fraction,
      instances,
      budget,
      commands,
      sent: times.length,
      perMinute,
      ratio: perMinute / limitPerMin,
      maxIn60s,
      perInstance: perService.map((s) => s.sent / total),
      refused429: summary.rateLimited?.['directTransfer'] ?? 0,
      seen429: perService.reduce((a, s) => a + s.seen429, 0),
      reservationsPerSend: perService.reduce((a, s) => a + s.reservations, 0) / Math.max(1, sentTotal),
      slotsLost: perService.reduce((a, s) => a + s.lost, 0),
      windowSeconds: span,
    };
  } finally {
    for (const c of children.reverse()) await stopNode(c);
    await dropDatabase(dbName).catch(() => undefined);
    await dropDatabase(template).catch(() => undefined);
  }
}

export function formatRateLimitBench(r: RateLimitBenchResult): string {
  const n = (x: number, d = 0) =>
    x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const rows = [
    ['measure', 'result', 'target'],
    [
      `transfers sent per minute, ${r.instances} instances, ${n(r.windowSeconds, 1)} s saturated (sandbox receive times)`,
      `${n(r.perMinute, 1)}/min = ${n(r.ratio, 4)} of ${n(r.limitPerMin)}`,
      '>= 0.98, <= 1',
    ],
    ['  most sent in any 60 s', `${n(r.maxIn60s)}`, `<= ${n(r.limitPerMin)}`],
    [
      '  429s: refused by the sandbox / counted by the services',
      `${n(r.refused429)} / ${n(r.seen429)}`,
      '0 / 0',
    ],
    [
      '  transfer calls per minute, each instance (whole run)',
      r.perInstance.map((x) => n(x, 1)).join(' / '),
      '',
    ],
    [
      '  budget reservations (statements) per send; slots lost',
      `${n(r.reservationsPerSend, 3)}; ${n(r.slotsLost)}`,
      '',
    ],
  ];
  return rows.map((row, i) => `| ${row.join(' | ')} |${i === 0 ? '\n| --- | --- | --- |' : ''}`).join('\n');
}

async function main(): Promise<void> {
  const env = process.env;
  const r = await runRateLimitBench({
    limitPerMin: Number(env['BENCH_RATE_LIMIT'] ?? 9000),
    seconds: Number(env['BENCH_RATE_SECONDS'] ?? 60),
    fraction: Number(env['BENCH_RATE_FRACTION'] ?? 0.99),
    instances: Number(env['BENCH_RATE_INSTANCES'] ?? 2),
    budget: env['BENCH_RATE_BUDGET'] === 'memory' ? 'memory' : 'postgres',
    brokers: (env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(','),
  });
  console.log(`\n${formatRateLimitBench(r)}\n`);
  console.log(JSON.stringify(r));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
