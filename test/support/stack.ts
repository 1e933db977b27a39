import pg from 'pg';
import { type Consumer, type KafkaMessage, type Producer } from 'kafkajs';
import { type PayoutEvent, type QueryReply, TOPICS, topicName } from '#contracts';
import { type Tracing } from '#observability';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '#sandbox';
import { startService, type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { loadServiceConfig } from '../../apps/payout-service/src/service.config.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createServiceTopics, eventually, testKafka, testTopicPrefix } from './kafka.js';
import { capturingLogger, testServiceEnv } from './service.js';

export interface Stack {
  readonly db: TestDatabase;
  readonly sandbox: RunningSandbox;
  readonly prefix: string;
  readonly events: PayoutEvent[];
  /** Every event with its Kafka headers (strings), in the order consumed. */
  readonly eventMessages: Array<{ readonly event: PayoutEvent; readonly headers: Record<string, string> }>;
  readonly replies: QueryReply[];
  /** Every reply with its Kafka key and headers (strings), in the order consumed. */
  readonly replyMessages: Array<{
    readonly reply: QueryReply;
    readonly key: string | undefined;
    readonly headers: Record<string, string>;
  }>;
  readonly dlq: KafkaMessage[];
  readonly logLines: string[];
  services: ServiceApp[];
  env: Record<string, string>;
  send(command: object, key?: string, headers?: Record<string, string>): Promise<void>;
  sendRaw(value: Buffer | string | null, key?: string): Promise<void>;
  /** Many messages in ONE produce request, all to `partition`: the intake sees them in this order, usually in one batch. */
  sendToPartition(
    partition: number,
    messages: ReadonlyArray<{ value: Buffer | string | null; key?: string }>,
  ): Promise<void>;
  /** A query against this stack's own database. */
  sql<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  query(query: object, headers?: Record<string, string>): Promise<void>;
  eventsOf(id: string): PayoutEvent[];
  waitForStatus(id: string, status: string, timeoutMs?: number): Promise<PayoutEvent>;
  startService(extraEnv?: Record<string, string>): Promise<ServiceApp>;
  sandboxCall(method: string, path: string, body?: unknown): Promise<unknown>;
  registerBeneficiary(b: {
    beneId: string;
    bankAccount?: string;
    ifsc?: string;
    vpa?: string;
  }): Promise<void>;
  close(): Promise<void>;
}

/** Defaults that make unclear payouts resolve in test time, not production time. */
export const FAST_RECONCILE = {
  RECONCILE_SCHEDULE: '300ms,300ms,500ms,1s,1s,2s,2s,3s',
  RECONCILER_POLL_MS: '100',
  RESEND_DELAY_MS: '200',
  // The reversal watch's schedule alone (its working days would keep a SUCCESS watched for days).
  REVERSAL_WATCH_WORKING_DAYS: '0',
  EXECUTOR_IDLE_POLL_MS: '50',
  OUTBOX_POLL_INTERVAL_MS: '200',
};

/**
 * A whole stack of this test file's own: a database cloned from the template, topics under a
 * private prefix, an in-process provider sandbox and one (or more) payout service instances,
 * plus a consumer that collects every event, reply and dead letter.
 */
export async function startStack(
  opts: {
    env?: Record<string, string>;
    sandbox?: SandboxOptions;
    /** The services' tracing (e.g. an in-memory exporter); closing a service shuts it down. */
    tracing?: Tracing;
  } = {},
): Promise<Stack> {
  const db = await createTestDatabase();
  const prefix = testTopicPrefix();
  await createServiceTopics(prefix);
  const sandbox = await startSandbox({
    port: 0,
    pendingDelayMs: 1_000,
    hangMs: 25_000,
    batchDelayMs: 500,
    ...opts.sandbox,
  });
  const kafka = testKafka();
  const producer: Producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const events: PayoutEvent[] = [];
  const eventMessages: Stack['eventMessages'] = [];
  const replies: QueryReply[] = [];
  const replyMessages: Stack['replyMessages'] = [];
  const dlq: KafkaMessage[] = [];
  const consumer: Consumer = kafka.consumer({
    groupId: `${prefix}.observer`,
    allowAutoTopicCreation: false,
    // A fetch returns as soon as a message is there; the wait only bounds an idle one. With
    // kafkajs's default (5 s), close() waited out the idle fetch: about 4 s per stack, every file.
    maxWaitTimeInMs: 200,
  });
  await consumer.connect();
  await consumer.subscribe({
    topics: [TOPICS.events, TOPICS.queryReplies, TOPICS.commandsDlq].map((t) => topicName(prefix, t)),
    fromBeginning: true,
  });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const v = message.value?.toString() ?? 'null';
      const headers = Object.fromEntries(
        Object.entries(message.headers ?? {}).map(([k, h]) => [k, String(Array.isArray(h) ? h[0] : h)]),
      );
      if (topic.endsWith(TOPICS.events)) {
        const event = JSON.parse(v) as PayoutEvent;
        events.push(event);
        eventMessages.push({ event, headers });
      } else if (topic.endsWith(TOPICS.queryReplies)) {
        const reply = JSON.parse(v) as QueryReply;
        replyMessages.push({ reply, key: message.key?.toString(), headers });
        replies.push(reply);
      } else dlq.push(message);
    },
  });
  const { logger, lines } = capturingLogger(opts.env?.['LOG_LEVEL'] ?? 'info');
  const env = testServiceEnv({
    databaseUrl: db.url,
    topicPrefix: prefix,
    extra: {
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_PAYOUT_URL: sandbox.url,
      LOG_LEVEL: 'info',
      ...FAST_RECONCILE,
      ...opts.env,
    },
  });
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const sandboxCall = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  const stack: Stack = {
    db,
    sandbox,
    prefix,
    events,
    eventMessages,
    replies,
    replyMessages,
    dlq,
    logLines: lines,
    services: [],
    env,
    async send(command, key, headers) {
      const d = (command as { data?: Record<string, string | undefined> }).data;
      const k = key ?? d?.['transferId'] ?? d?.['batchTransferId'] ?? d?.['withdrawalId'] ?? '';
      await producer.send({
        topic: topicName(prefix, TOPICS.commands),
        messages: [{ key: k, value: JSON.stringify(command), headers }],
      });
    },
    async sendRaw(value, key) {
      await producer.send({
        topic: topicName(prefix, TOPICS.commands),
        messages: [{ key: key ?? null, value }],
      });
    },
    async sendToPartition(partition, messages) {
      await producer.send({
        topic: topicName(prefix, TOPICS.commands),
        messages: messages.map((m) => ({ partition, key: m.key ?? null, value: m.value })),
      });
    },
    async sql<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<R[]> {
      const result = await pool.query<R>(text, params);
      return result.rows;
    },
    async query(q, headers) {
      await producer.send({
        topic: topicName(prefix, TOPICS.queries),
        messages: [{ value: JSON.stringify(q), headers }],
      });
    },
    eventsOf: (id) => events.filter((e) => e.subject === id),
    waitForStatus: async (id, status, timeoutMs = 20_000) => {
      try {
        return await eventually(() => events.find((e) => e.subject === id && e.data.status === status), {
          timeoutMs,
        });
      } catch {
        const seen = events.filter((e) => e.subject === id).map((e) => e.data.status);
        const problems = lines
          .filter((l) => /"level":"(error|warn)"/.test(l) && !l.includes('Limiting retries'))
          .slice(-5);
        throw new Error(
          `timed out waiting for ${id} -> ${status}; seen [${seen.join(', ')}]; last problems:\n${problems.join('\n')}`,
        );
      }
    },
    async startService(extraEnv = {}) {
      const s = await startService(loadServiceConfig({ ...env, ...extraEnv }), logger, opts.tracing);
      stack.services.push(s);
      return s;
    },
    sandboxCall,
    async registerBeneficiary(b) {
      const auth = await fetch(`${sandbox.url}/payout/v1/authorize`, {
        method: 'POST',
        headers: { 'x-client-id': sandbox.clientId, 'x-client-secret': sandbox.clientSecret },
      });
      const token = ((await auth.json()) as { data: { token: string } }).data.token;
      const res = await fetch(`${sandbox.url}/payout/v1/addBeneficiary`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Test Bene',
          email: 'bene@example.com',
          phone: '9876543210',
          address1: 'Street 1',
          ...b,
        }),
      });
      const body = (await res.json()) as { subCode?: string; message?: string };
      if (String(body.subCode) !== '200') throw new Error(`addBeneficiary: ${body.message ?? 'failed'}`);
      // The provider refuses transfers to a beneficiary added less than 30 minutes ago.
      await sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 31 * 60 });
    },
    async close() {
      for (const s of stack.services) await s.close().catch(() => undefined);
      await consumer.disconnect();
      await producer.disconnect();
      await sandbox.close();
      await pool.end();
      await db.drop();
    },
  };
  return stack;
}
