import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { Registry } from 'prom-client';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics, ReconnectingProducer } from '#messaging';
import type pg from 'pg';
import { DEVELOPMENT_ENCRYPTION_KEY, type QueryAnswerRepository, SecretsCipher } from '#ledger';
import { KafkaDeadLetterPublisher, parseReplyTopics, PipelineMetrics, QueryService } from '#pipeline';
import { createProviderClient, Provider, type ProviderAccounts } from '#provider-client/testing';
import { capturingLogger, eventually, PrivateBroker, testTopicPrefix } from '#test-support';

/** Offsets written to a topic so far, all partitions together. */
async function produced(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((n, o) => n + Number(o.high), 0);
  } finally {
    await admin.disconnect();
  }
}

// Producers that were first used while the broker was down must work once it is back: a refused
// connect is not kept for ever.
describe('the DLQ and query-reply producers reconnect after a broker outage', () => {
  const broker = new PrivateBroker();
  const prefix = testTopicPrefix();
  const dlqTopic = topicName(prefix, TOPICS.commandsDlq);
  const repliesTopic = topicName(prefix, TOPICS.queryReplies);
  let kafka: Kafka;
  let dlq: KafkaDeadLetterPublisher;
  let queries: QueryService;

  const deadLetter = {
    key: Buffer.from('k1'),
    value: Buffer.from('{not json'),
    headers: { 'dlq-reason': 'malformed_json' },
  };
  // Refused before any provider call (no data), and answered: the reply needs the producer.
  const badQuery = {
    key: null,
    value: Buffer.from(JSON.stringify({ type: 'query.bene_id', queryId: 'q1' })),
    offset: '0',
  } as unknown as KafkaMessage;

  before(async () => {
    await broker.start();
    kafka = new Kafka({
      clientId: 'reconnect-test',
      brokers: broker.brokers,
      connectionTimeout: 1_000,
      retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 },
      logLevel: logLevel.NOTHING,
    });
    await ensureTopics(kafka, [
      { topic: dlqTopic, numPartitions: 1 },
      { topic: repliesTopic, numPartitions: 1 },
    ]);
    dlq = new KafkaDeadLetterPublisher(new ReconnectingProducer(kafka), prefix);
    // Never called: the query is refused before reaching the provider.
    const client = createProviderClient({
      hosts: { baseUrl: 'http://127.0.0.1:9', payoutUrl: 'http://127.0.0.1:9' },
      accounts: [{ accountId: 'main', clientId: 'id', clientSecret: 'secret-value-for-test' }],
      defaultAccountId: 'main',
      apiVersion: '2024-01-01',
      timeouts: {
        default: { connectMs: 200, headersMs: 200, bodyMs: 200 },
        transfer: { connectMs: 200, headersMs: 200, bodyMs: 200 },
      },
      tokenRefreshMarginSeconds: 60,
      ratePerMinute: { transfer: 600, status: 600, authorize: 600, balance: 600, default: 600 },
      maxAttempts: 1,
      retryBaseMs: 5,
      retryMaxMs: 20,
      maxRateLimitWaitMs: 100,
    });
    const provider = new Provider(client, () => 'v1', {} as ProviderAccounts);
    queries = new QueryService({
      producer: new ReconnectingProducer(kafka),
      provider: provider.queries,
      registry: new Registry(),
      topicPrefix: prefix,
      logger: capturingLogger('fatal').logger,
      defaultAccountId: 'main',
      beneficiaries: provider.beneficiaries,
      ledgerHistory: { page: () => Promise.reject(new Error('not expected in this test')) },
      replyTopics: parseReplyTopics(TOPICS.queryReplies).topics,
      // No Postgres here: the query is refused before any record, and its reply needs none.
      pool: {} as pg.Pool,
      answers: { purge: () => Promise.resolve(0) } as unknown as QueryAnswerRepository,
      cipher: SecretsCipher.fromConfig('t', DEVELOPMENT_ENCRYPTION_KEY, ''),
      keepAnswersMs: 60_000,
      // A reply that cannot be sent is dead-lettered: through the same broker, down as well.
      dlq,
      deadLetters: { record: () => Promise.resolve() },
      deadLetterKey: createSecretKey(Buffer.alloc(32, 9)),
      metrics: new PipelineMetrics(new Registry()),
    });
    await broker.stop();
  });

  after(async () => {
    await dlq?.close().catch(() => undefined);
    await queries?.close().catch(() => undefined);
    await broker.destroy();
  });

  it('fail while the broker is down', async () => {
    await assert.rejects(dlq.publish([deadLetter]));
    await assert.rejects(queries.handle(topicName(prefix, TOPICS.queries), 0, [badQuery]));
  });

  it('send once it is back', async () => {
    await broker.start();
    await eventually(() => dlq.publish([deadLetter]).then(() => true), {
      timeoutMs: 30_000,
      intervalMs: 500,
      what: 'a dead letter sent after the restart',
    });
    // Until the reply itself is on its topic (a dead letter of it would not do).
    await eventually(
      async () => {
        await queries.handle(topicName(prefix, TOPICS.queries), 0, [badQuery]);
        return (await produced(kafka, repliesTopic)) >= 1 ? true : undefined;
      },
      {
        timeoutMs: 30_000,
        intervalMs: 500,
        what: 'a query reply sent after the restart',
      },
    );
    assert.ok((await produced(kafka, dlqTopic)) >= 1);
    assert.ok((await produced(kafka, repliesTopic)) >= 1);
  });
});
