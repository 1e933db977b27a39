import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type KafkaMessage } from 'kafkajs';
import type pg from 'pg';
import { TOPICS, topicName } from '#contracts';
import { createPool } from '#database';
import { ensureTopics } from '#messaging';
import {
  OutboxRelay,
  OutboxRepository,
  type OutboxInsert,
  type OutboxRelaySettings,
  type OutboxMetrics,
} from '#outbox';
import {
  capturingLogger,
  createTestDatabase,
  TEST_KAFKA_BROKERS,
  testKafka,
  testTopicPrefix,
  type TestDatabase,
} from '#test-support';

export const EVENTS = TOPICS.events;

export const TEST_SETTINGS: OutboxRelaySettings = {
  batchSize: 100,
  pollIntervalMs: 200,
  maxAttempts: 3,
  retryBaseMs: 50,
  retryMaxMs: 200,
  maxMessageBytes: 1_000_000,
  sendTimeoutMs: 5_000,
  retentionHours: 72,
  purgeIntervalMs: 3_600_000,
  purgeBatchSize: 1_000,
};

export interface Received {
  readonly key: string;
  readonly eventId: string;
  readonly version: number;
  readonly partition: number;
  readonly headers: Record<string, string>;
  /** The message's value as sent. */
  readonly value: string;
}

/** An event envelope shaped like the service's (CloudEvents-style), with a version to check order by. */
export function event(key: string, version: number, extra: Partial<OutboxInsert> = {}): OutboxInsert {
  const eventId = `${key}:${version}`;
  return {
    messageKey: key,
    eventId,
    eventType: 'payout.status',
    topic: EVENTS,
    payload: { id: eventId, type: 'payout.status', source: 'test', subject: key, data: { version } },
    headers: { 'content-type': 'application/json' },
    ...extra,
  };
}

/** One test file's world: its own database, topic prefix and events topic on the real broker. */
export class OutboxHarness {
  readonly prefix = testTopicPrefix();
  readonly repo = new OutboxRepository();
  readonly log = capturingLogger('warn');
  private readonly relays: OutboxRelay[] = [];
  private readonly consumers: Consumer[] = [];
  /** Few, fast kafkajs retries, so a failing send costs a test well under a second. */
  readonly kafka = new Kafka({
    clientId: `relay-${this.prefix}`,
    brokers: TEST_KAFKA_BROKERS,
    logLevel: logLevel.NOTHING,
    retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 500 },
  });

  private constructor(
    readonly db: TestDatabase,
    readonly pool: pg.Pool,
  ) {}

  static async create(): Promise<OutboxHarness> {
    const db = await createTestDatabase();
    const pool = createPool({
      url: db.url,
      max: 8,
      applicationName: 'outbox-test',
      // pool.end() resolves before idle connections close; dropping the database then kills them.
      onConnectionError: () => undefined,
    });
    const h = new OutboxHarness(db, pool);
    await ensureTopics(testKafka(), [{ topic: h.topic(EVENTS), numPartitions: 3 }]);
    return h;
  }

  topic(logical: string): string {
    return topicName(this.prefix, logical);
  }

  relay(
    settings: Partial<OutboxRelaySettings> = {},
    metrics?: OutboxMetrics,
    kafka = this.kafka,
  ): OutboxRelay {
    const r = new OutboxRelay({
      pool: this.pool,
      databaseUrl: this.db.url,
      kafka,
      topicPrefix: this.prefix,
      logger: this.log.logger,
      settings: { ...TEST_SETTINGS, ...settings },
      ...(metrics ? { metrics } : {}),
    });
    this.relays.push(r);
    return r;
  }

  /** Enqueues in a transaction of its own, committed (or rolled back) before returning. */
  async enqueueTx(rows: readonly OutboxInsert[], outcome: 'commit' | 'rollback' = 'commit'): Promise<void> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await this.repo.enqueue(c, rows);
      await c.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
    } finally {
      c.release();
    }
  }

  /** A real consumer (own group, from the beginning) collecting everything on the events topic. */
  async consume(logical: string = EVENTS): Promise<Received[]> {
    const got: Received[] = [];
    const consumer = testKafka().consumer({
      groupId: `${this.prefix}.${randomBytes(3).toString('hex')}`,
      maxWaitTimeInMs: 100, // short fetches: quick delivery, and disconnect need not wait out a long poll
    });
    this.consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: this.topic(logical), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        got.push(decode(message, partition));
      },
    });
    return got;
  }

  async rowStates(): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ state: string; n: string }>(
      'SELECT state, count(*) AS n FROM outbox GROUP BY state',
    );
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  async close(): Promise<void> {
    for (const r of this.relays) await r.stop();
    for (const c of this.consumers) await c.disconnect();
    await this.pool.end();
    await this.db.drop();
  }
}

function decode(message: KafkaMessage, partition: number): Received {
  const value = message.value?.toString() ?? 'null';
  const body = JSON.parse(value) as { data?: { version?: number } };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = v?.toString() ?? '';
  return {
    key: message.key?.toString() ?? '',
    eventId: headers['ce_id'] ?? '',
    version: body.data?.version ?? -1,
    partition,
    headers,
    value,
  };
}

/** Versions received per key, in arrival order. */
export function versionsByKey(got: readonly Received[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of got) out.set(m.key, [...(out.get(m.key) ?? []), m.version]);
  return out;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
