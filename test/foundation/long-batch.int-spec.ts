import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { type Kafka } from 'kafkajs';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload, type CustomStrategy } from '@nestjs/microservices';
import { ensureTopics, KafkaBatchTransport, type KafkaBatch } from '#messaging';
import { capturingLogger, eventually, testKafka, testTopicPrefix } from '#test-support';

// The broker's smallest session timeout (group.min.session.timeout.ms); the handler takes longer.
const SESSION_TIMEOUT_MS = 6_000;
// The service's own heartbeat (KAFKA_HEARTBEAT_INTERVAL_MS): six a session, so a loaded machine
// (npm test runs the chaos run beside this file) does not miss the session between two of them.
const HEARTBEAT_INTERVAL_MS = 1_000;
const HANDLER_MS = 10_000;
/** Per topic (each scenario has its own), the values delivered to the handler. */
const deliveries = new Map<string, string[]>();
const deliveredOn = (topic: string): string[] => deliveries.get(topic) ?? [];

@Controller()
class SlowController {
  @EventPattern('slow')
  async onBatch(@Payload() batch: KafkaBatch): Promise<void> {
    deliveries.set(batch.topic, [
      ...deliveredOn(batch.topic),
      ...batch.messages.map((m) => m.value?.toString() ?? ''),
    ]);
    // Like an intake transaction waiting on a lock: no heartbeat from the handler itself.
    await sleep(HANDLER_MS);
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

async function startMember(kafka: Kafka, prefix: string, groupId: string): Promise<INestMicroservice> {
  const { logger } = capturingLogger('fatal');
  const strategy: CustomStrategy = {
    strategy: new KafkaBatchTransport({
      kafka,
      groupId,
      topicFor: (p) => `${prefix}.${p}`,
      logger,
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
      heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
    }),
  };
  const app = await NestFactory.createMicroservice(SlowModule, { ...strategy, logger: false });
  await app.listen();
  return app;
}

async function committed(kafka: Kafka, groupId: string, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await eventually(
      async () => {
        const [t] = await admin.fetchOffsets({ groupId, topics: [topic] });
        return t?.partitions[0]?.offset === '1' ? true : undefined;
      },
      { timeoutMs: 6 * HANDLER_MS, intervalMs: 500, what: 'offset 1 committed' },
    );
  } finally {
    await admin.disconnect();
  }
}

// A Kafka batch whose handling outlasts the session timeout: the member must keep its partition,
// so the batch is handled once and committed, not handled again (or for ever), by itself or by
// another member of the group. The two scenarios run side by side (own topics and groups): each
// is mostly waiting for its handler.
describe('a batch longer than the session timeout (real broker)', { concurrency: true }, () => {
  const kafka = testKafka();
  const apps: INestMicroservice[] = [];

  const produce = async (topic: string) => {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'long' }] });
    await producer.disconnect();
  };

  after(async () => {
    for (const app of apps) await app.close();
  });

  it('is handled once and its offset committed', async () => {
    const prefix = testTopicPrefix();
    const topic = `${prefix}.slow`;
    const groupId = `${prefix}.group`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    apps.push(await startMember(kafka, prefix, groupId));
    await produce(topic);
    await committed(kafka, groupId, topic);
    // Long enough for a redelivery to have started, had the member lost the partition.
    await sleep(2_000);
    assert.deepEqual(deliveredOn(topic), ['long']);
  });

  it('is not handled again by a member that joins the group meanwhile', async () => {
    const prefix = testTopicPrefix();
    const topic = `${prefix}.slow`;
    const groupId = `${prefix}.group`;
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    apps.push(await startMember(kafka, prefix, groupId));
    await produce(topic);
    await eventually(() => (deliveredOn(topic).length > 0 ? true : undefined), {
      what: 'the first delivery',
    });
    apps.push(await startMember(kafka, prefix, groupId));
    await committed(kafka, groupId, topic);
    await sleep(2_000);
    assert.deepEqual(deliveredOn(topic), ['long']);
  });
});
