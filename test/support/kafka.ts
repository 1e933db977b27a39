import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';

export const TEST_KAFKA_BROKERS = (process.env['TEST_KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');

/** A topic prefix of this test's own, so files never read each other's messages. */
export function testTopicPrefix(): string {
  return `test-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export function testKafka(brokers: readonly string[] = TEST_KAFKA_BROKERS): Kafka {
  return new Kafka({ clientId: 'test', brokers: [...brokers], logLevel: logLevel.NOTHING });
}

export async function createServiceTopics(prefix: string, brokers = TEST_KAFKA_BROKERS): Promise<void> {
  await ensureTopics(
    testKafka(brokers),
    Object.values(TOPICS).map((t) => ({ topic: topicName(prefix, t), numPartitions: 3 })),
  );
}

/** Polls `fn` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 15_000, intervalMs = 100, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      lastError = e;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: lastError });
}
