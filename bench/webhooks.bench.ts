/**
 * Webhooks against polling only: the time from the provider's status change to the terminal
 * event on the topic, and the status calls spent per payout (`npm run bench:webhooks`).
 *
 * Each mode gets a fresh database, its own topics, an in-process provider sandbox and one service
 * (intake, executor, reconciler, relay; plus `webhooks` in the webhook mode) with the production
 * reconcile schedule (first status check 30 s after PENDING) and no reversal watch. N direct
 * transfers go to the sandbox's "pending, then success" account, which the sandbox settles
 * PENDING_MS after accepting each. The moment of the change is the `event_time` of the sandbox's
 * TRANSFER_SUCCESS webhook (sandbox clock = real time here: it is never advanced): read from the
 * service's `provider_webhook` table in the webhook mode, from a recorder the sandbox posts to
 * instead in the polling mode (the service never sees those).
 *
 * Commands go out at BENCH_WEBHOOK_RATE per second (20; 0 sends them all at once: the sandbox
 * sends first attempts one at a time, so a burst's webhooks queue behind each other there).
 *
 *   BENCH_WEBHOOK_N=200 BENCH_WEBHOOK_RATE=0 npm run bench:webhooks
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { type PayoutEvent, TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';
import { createLogger } from '#observability';
import { startSandbox } from '#sandbox';
import { startService } from '../apps/payout-service/src/bootstrap.js';
import { loadServiceConfig } from '../apps/payout-service/src/service.config.js';
import {
  benchDatabase,
  benchPool,
  dropDatabase,
  freshDatabase,
  migratedTemplate,
  percentile,
} from './support.js';

const N = Number(process.env['BENCH_WEBHOOK_N'] ?? 100);
/** Commands sent per second (0: all at once, a burst whose webhooks queue at the sandbox). */
const RATE = Number(process.env['BENCH_WEBHOOK_RATE'] ?? 20);
const PENDING_MS = 2_000;
const BROKERS = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
const PENDING_THEN_SUCCESS = { bankAccount: '00224412311300', ifsc: 'YESB0000001' };
type Mode = 'webhooks' | 'polling';

interface Figures {
  readonly mode: Mode;
  readonly settled: number;
  readonly latencyMs: readonly number[];
  readonly statusCallsPerPayout: number;
  readonly wallSeconds: number;
  /** Change -> the service's 200 for its TRANSFER_SUCCESS (the sandbox's delivery log), p50. */
  readonly answeredP50Ms: number | undefined;
  /** The service's own figure: webhook received -> terminal state committed, mean (webhook mode). */
  readonly receivedToTerminalMs: number | undefined;
}

/** Records the event_time of each TRANSFER_SUCCESS the sandbox posts (polling mode). */
async function recorder(times: Map<string, number>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const b = JSON.parse(Buffer.concat(chunks).toString()) as {
          type?: string;
          event_time?: string;
          data?: { transferId?: string };
        };
        const id = b.data?.transferId;
        if (b.type === 'TRANSFER_SUCCESS' && id && b.event_time && !times.has(id)) {
          times.set(id, Date.parse(b.event_time));
        }
      } catch {
        // not ours to judge
      }
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

/** Sum of the samples of `name` whose labels pass `test`, from the service's /metrics. */
async function metric(serviceUrl: string, name: string, test: (labels: string) => boolean): Promise<number> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  let n = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})? ([0-9.e+-]+)$/.exec(line);
    if (m && m[1] === name && test(m[2] ?? '')) n += Number(m[3]);
  }
  return n;
}

const statusCalls = (url: string) =>
  metric(url, 'payouts_provider_request_duration_seconds_count', (l) => /endpoint="[^"]*[Ss]tatus/.test(l));

async function runMode(mode: Mode, template: string, tag: string): Promise<Figures> {
  const dbName = benchDatabase(`webhooks_${mode}`);
  const url = await freshDatabase(dbName, template);
  const prefix = `bench-wh-${mode}-${tag}`;
  const kafka = new Kafka({ clientId: 'bench-webhooks', brokers: BROKERS, logLevel: logLevel.NOTHING });
  await ensureTopics(
    kafka,
    Object.values(TOPICS).map((t) => ({ topic: topicName(prefix, t), numPartitions: 6 })),
  );
  const changedAt = new Map<string, number>();
  const rec = mode === 'polling' ? await recorder(changedAt) : undefined;
  const sandbox = await startSandbox({
    port: 0,
    pendingDelayMs: PENDING_MS,
    initialBalance: '9999999999.00',
    rateLimits: { transfer: 0, status: 0, authorize: 0, other: 0 },
  });
  const logger = createLogger({ level: 'warn', name: `bench-${mode}` });
  const service = await startService(
    loadServiceConfig({
      DATABASE_URL: url,
      KAFKA_BROKERS: BROKERS.join(','),
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_CLIENT_ID: `bench-${prefix}`,
      HTTP_PORT: '0',
      WEBHOOKS_PORT: '0',
      LOG_LEVEL: 'warn',
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_PAYOUT_URL: sandbox.url,
      PROVIDER_RATE_BUDGET: 'memory',
      SERVICE_ROLES: `intake,executor,reconciler,relay${mode === 'webhooks' ? ',webhooks' : ''}`,
      REVERSAL_WATCH_SCHEDULE: 'off',
    }),
    logger,
  );
  const hookUrl = mode === 'webhooks' ? `${service.webhooksUrl}/webhooks/v2/default` : rec?.url;
  await fetch(`${sandbox.url}/__sandbox/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: hookUrl, version: 'v2' }),
  });

  const terminalAt = new Map<string, number>();
  const consumer = kafka.consumer({ groupId: `${prefix}.observer` });
  await consumer.connect();
  await consumer.subscribe({ topic: topicName(prefix, TOPICS.events), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const e = JSON.parse(message.value?.toString() ?? '{}') as PayoutEvent;
      if (e.data?.status === 'SUCCESS' && !terminalAt.has(e.subject)) terminalAt.set(e.subject, Date.now());
    },
  });
  const producer = kafka.producer();
  await producer.connect();
  const ids = Array.from({ length: N }, (_, i) => `${tag}_${mode}_${i}`);
  const started = Date.now();
  const command = (transferId: string) => ({
    key: transferId,
    value: JSON.stringify({
      type: 'payout.direct_transfer',
      data: {
        transferId,
        amount: '101.00',
        beneDetails: { name: 'Bench Person', ...PENDING_THEN_SUCCESS },
      },
    }),
  });
  const topic = topicName(prefix, TOPICS.commands);
  if (RATE <= 0) await producer.send({ topic, messages: ids.map(command) });
  else {
    for (let i = 0; i < ids.length; i++) {
      const due = started + (i * 1000) / RATE;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      await producer.send({ topic, messages: [command(ids[i] ?? '')] });
    }
  }
  const deadline = Date.now() + 120_000;
  while (terminalAt.size < N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const wallSeconds = (Date.now() - started) / 1000;
  if (mode === 'webhooks') {
    const pool = benchPool(url, 1);
    const { rows } = await pool.query<{ transfer_id: string; at: Date }>(
      `SELECT transfer_id, min(event_time) AS at FROM provider_webhook
        WHERE event = 'TRANSFER_SUCCESS' GROUP BY transfer_id`,
    );
    for (const r of rows) changedAt.set(r.transfer_id, r.at.getTime());
    await pool.end();
  }
  const answered: number[] = [];
  if (mode === 'webhooks') {
    const log = (await (await fetch(`${sandbox.url}/__sandbox/webhooks/deliveries`)).json()) as {
      deliveries: Array<{ event: string; transferId: string; outcome: string; at: number }>;
    };
    for (const d of log.deliveries) {
      const at = changedAt.get(d.transferId);
      if (d.event === 'TRANSFER_SUCCESS' && d.outcome === 'delivered' && at !== undefined)
        answered.push(d.at - at);
    }
    answered.sort((a, b) => a - b);
  }
  const calls = await statusCalls(service.url);
  const appliedSum = await metric(service.url, 'payouts_webhook_to_terminal_seconds_sum', () => true);
  const applied = await metric(service.url, 'payouts_webhook_to_terminal_seconds_count', () => true);
  const latencyMs = ids
    .filter((id) => terminalAt.has(id) && changedAt.has(id))
    .map((id) => (terminalAt.get(id) ?? 0) - (changedAt.get(id) ?? 0))
    .sort((a, b) => a - b);
  await producer.disconnect();
  await consumer.disconnect();
  await service.close();
  await sandbox.close();
  if (rec) await new Promise((r) => rec.server.close(r));
  await dropDatabase(dbName);
  return {
    mode,
    settled: terminalAt.size,
    latencyMs,
    statusCallsPerPayout: calls / N,
    wallSeconds,
    answeredP50Ms: answered.length ? percentile(answered, 50) : undefined,
    receivedToTerminalMs: applied > 0 ? (appliedSum / applied) * 1000 : undefined,
  };
}

function row(f: Figures): string {
  const l = f.latencyMs;
  const ms = (p: number) => (l.length ? `${Math.round(percentile(l, p))}` : '-');
  return `| ${f.mode === 'webhooks' ? 'webhooks (v2) + polling' : 'polling only'} | ${N} | ${f.settled} | ${ms(50)} | ${ms(90)} | ${ms(99)} | ${l.length ? Math.round(l[l.length - 1] ?? 0) : '-'} | ${f.statusCallsPerPayout.toFixed(2)} | ${f.answeredP50Ms === undefined ? '-' : f.answeredP50Ms.toFixed(0)} | ${f.receivedToTerminalMs === undefined ? '-' : f.receivedToTerminalMs.toFixed(0)} | ${f.wallSeconds.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const template = benchDatabase('webhooks_tpl');
  await migratedTemplate(template);
  const tag = randomBytes(3).toString('hex');
  const results: Figures[] = [];
  for (const mode of ['webhooks', 'polling'] as const) {
    console.log(`mode ${mode}: ${N} payouts settled by the sandbox ${PENDING_MS} ms after acceptance...`);
    results.push(await runMode(mode, template, tag));
  }
  await dropDatabase(template);
  console.log(
    `\n${N} payouts at ${RATE > 0 ? `${RATE}/s` : 'once'}; the sandbox settles each ${PENDING_MS} ms after accepting it\n`,
  );
  console.log(
    '| mode | payouts | settled | change -> terminal event p50 (ms) | p90 | p99 | max | status calls / payout | change -> webhook answered p50 (ms) | webhook received -> terminal committed, mean (ms) | wall (s) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const f of results) console.log(row(f));
  const failed = results.some((f) => f.settled < N);
  if (failed) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error('webhooks bench failed:', e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
