import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload, type CustomStrategy } from '@nestjs/microservices';
import { type INestMicroservice } from '@nestjs/common';
import { type Consumer } from 'kafkajs';
import { ensureTopics, KafkaBatchTransport, type KafkaBatch } from '#messaging';
import { capturingLogger, eventually, testKafka, testTopicPrefix } from '#test-support';

const received: string[] = [];
let failuresLeft = 0;

@Controller()
class ProbeController {
  @EventPattern('probe')
  async onBatch(@Payload() batch: KafkaBatch): Promise<void> {
    if (failuresLeft > 0) {
      failuresLeft--;
      throw new Error('simulated handler failure');
    }
    for (const m of batch.messages) received.push(m.value?.toString() ?? '');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('KafkaBatchTransport (real broker)', () => {
  const prefix = testTopicPrefix();
  const topic = `${prefix}.probe`;
  const groupId = `${prefix}.group`;
  const kafka = testKafka();
  let app: INestMicroservice;

  before(async () => {
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    const { logger } = capturingLogger('error');
    const strategy: CustomStrategy = {
      strategy: new KafkaBatchTransport({ kafka, groupId, topicFor: (p) => `${prefix}.${p}`, logger }),
    };
    app = await NestFactory.createMicroservice(ProbeModule, { ...strategy, logger: false });
    await app.listen();
  });

  after(async () => {
    await app.close();
  });

  it('delivers produced messages to the handler and commits their offsets', async () => {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
    await producer.disconnect();
    await eventually(() => (received.length >= 3 ? true : undefined), { what: 'three messages' });
    assert.deepEqual(received.slice(0, 3), ['a', 'b', 'c']);

    const admin = kafka.admin();
    await admin.connect();
    const committed = await eventually(
      async () => {
        const [t] = await admin.fetchOffsets({ groupId, topics: [topic] });
        const p = t?.partitions[0];
        return p && p.offset === '3' ? p.offset : undefined;
      },
      { what: 'offset 3 committed' },
    );
    await admin.disconnect();
    assert.equal(committed, '3');
  });

  it('does not commit a batch whose handler failed: the batch is delivered again', async () => {
    received.length = 0;
    failuresLeft = 1;
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'retry-me' }] });
    await producer.disconnect();
    await eventually(() => (received.includes('retry-me') ? true : undefined), {
      what: 'redelivery after a failed handler',
      timeoutMs: 30_000,
    });
    assert.equal(failuresLeft, 0, 'the first delivery failed');
    assert.equal(received.filter((v) => v === 'retry-me').length, 1);
  });
});

// kafkajs heartbeats from its fetch loop: an idle consumer heartbeats only when a fetch returns,
// after the fetch's max wait (kafkajs' default 5 s). An idle member then learns of a rebalance up
// to 5 s late (a restarted instance's join waits for it), and with a 6 s session it is close to
// losing its place. The transport's fetches wait no longer than its heartbeat interval.
describe('KafkaBatchTransport on an idle topic (real broker)', () => {
  const prefix = testTopicPrefix();
  const kafka = testKafka();
  let app: INestMicroservice;
  let transport: KafkaBatchTransport;

  before(async () => {
    await ensureTopics(kafka, [{ topic: `${prefix}.probe`, numPartitions: 1 }]);
    const { logger } = capturingLogger('error');
    transport = new KafkaBatchTransport({
      kafka,
      groupId: `${prefix}.idle`,
      topicFor: (p) => `${prefix}.${p}`,
      logger,
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
    });
    app = await NestFactory.createMicroservice(ProbeModule, { strategy: transport, logger: false });
    await app.listen();
  });

  after(async () => {
    await app.close();
  });

  it('heartbeats about every heartbeat interval while nothing arrives', async () => {
    const consumer = transport.unwrap<Consumer>();
    let beats = 0;
    const off = consumer.on(consumer.events.HEARTBEAT, () => (beats += 1));
    await new Promise((r) => setTimeout(r, 6_000));
    off();
    // Every 0.5-1 s: 6 or more. With fetches waiting 5 s, 1 or 2.
    assert.ok(beats >= 4, `${beats} heartbeats in 6 s of idling`);
  });
});
