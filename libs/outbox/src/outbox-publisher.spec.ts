import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import kafkajs, { type Kafka } from 'kafkajs';
import { createLogger } from '#observability';
import { BrokerUnavailableError, OutboxPublisher } from './outbox-publisher.js';
import { type OutboxRow } from './outbox.types.js';

const { KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } = kafkajs;

/**
 * A broker that answers every produce request with one error, built the way kafkajs builds it
 * (a protocol error, wrapped once its retries are spent). A single-broker test cluster cannot
 * be made to answer NOT_ENOUGH_REPLICAS (Kafka caps the effective min.insync.replicas at the
 * replication factor), so these answers are made here; a hung real broker is in
 * test/outbox/outbox-reliability.int-spec.ts.
 */
function answering(type: string, code: number, retriable: boolean): Kafka {
  // The shape kafkajs passes (protocol/error.js); its typings only admit an Error.
  const answer = { type, code, retriable, message: `broker says ${type}` } as unknown as Error;
  const error = new KafkaJSProtocolError(answer);
  const thrown = retriable
    ? new KafkaJSNumberOfRetriesExceeded(error, { retryCount: 5, retryTime: 100 })
    : error;
  return {
    producer: () => ({
      connect: () => Promise.resolve(),
      disconnect: () => Promise.resolve(),
      sendBatch: () => Promise.reject(thrown),
    }),
  } as unknown as Kafka;
}

const rows: OutboxRow[] = ['a', 'b'].map((k, i) => ({
  id: String(i + 1),
  messageKey: k,
  eventId: `${k}:1`,
  eventType: 'payout.status',
  topic: 'payouts.events',
  payload: JSON.stringify({ id: `${k}:1` }),
  headers: {},
  attempts: 0,
}));

const publisher = (kafka: Kafka) =>
  new OutboxPublisher({
    kafka,
    topicPrefix: 't',
    logger: createLogger({ level: 'silent', name: 'test' }),
    maxMessageBytes: 1_000_000,
    sendTimeoutMs: 1_000,
  });

describe('OutboxPublisher: whose fault a failed send is', () => {
  for (const [type, code] of [
    ['NOT_ENOUGH_REPLICAS', 19],
    ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 20],
    ['REQUEST_TIMED_OUT', 7],
    ['NOT_LEADER_FOR_PARTITION', 6],
    ['LEADER_NOT_AVAILABLE', 5],
    ['KAFKA_STORAGE_ERROR', 56],
  ] as const) {
    it(`${type}: the broker is in trouble, no row is charged (the round rolls back)`, async () => {
      await assert.rejects(publisher(answering(type, code, true)).publish(rows), (e: unknown) => {
        assert.ok(e instanceof BrokerUnavailableError, String(e));
        assert.match(e.message, new RegExp(type));
        return true;
      });
    });
  }

  it('a client-side timeout waiting for the cluster: no row is charged', async () => {
    // kafkajs constructs it with a message (its typings omit the parameter).
    const LockTimeout = kafkajs.KafkaJSLockTimeout as unknown as new (message: string) => Error;
    const kafka = {
      producer: () => ({
        connect: () => Promise.resolve(),
        disconnect: () => Promise.resolve(),
        sendBatch: () => Promise.reject(new LockTimeout('Timeout while acquiring lock')),
      }),
    } as unknown as Kafka;
    await assert.rejects(publisher(kafka).publish(rows), BrokerUnavailableError);
  });

  it('MESSAGE_TOO_LARGE: the message is at fault, each row is charged', async () => {
    const out = await publisher(answering('MESSAGE_TOO_LARGE', 10, false)).publish(rows);
    assert.deepEqual(out.sent, []);
    assert.deepEqual(
      out.failed.map((f) => f.id),
      ['1', '2'],
    );
    assert.match(out.failed[0]!.error, /MESSAGE_TOO_LARGE/);
  });
});
