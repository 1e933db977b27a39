import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics, KafkaBatchTransport, type KafkaBatch } from '#messaging';
import { capturingLogger, eventually, PrivateBroker, testTopicPrefix } from '#test-support';

@Controller()
class QuietController {
  @EventPattern('quiet')
  async onBatch(@Payload() _batch: KafkaBatch): Promise<void> {
    /* nothing to do: the test is about the consumer's life, not its messages */
  }
}

@Module({ controllers: [QuietController] })
class QuietModule {}

const crashes = (lines: readonly string[]): string[] => lines.filter((l) => l.includes('consumer crashed'));

/**
 * kafkajs restarts a crashed consumer on a timer, and a restart that is connecting when
 * `disconnect()` runs is not cancelled: it crashes again and schedules the next restart, forever.
 * A service closed while Kafka is away then never lets its process exit (found as an `npm test`
 * file that passed every test and never ended). Closing must end every restart.
 */
describe('KafkaBatchTransport close while the broker is away', () => {
  const broker = new PrivateBroker();
  const prefix = testTopicPrefix();
  const { logger, lines } = capturingLogger('info');
  let app: INestMicroservice;

  before(async () => {
    await broker.start();
    const kafka = new Kafka({
      clientId: `close-${prefix}`,
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
      connectionTimeout: 500,
      requestTimeout: 1_000,
      // Short retries, so the consumer crashes and restarts within the test's time.
      retry: { initialRetryTime: 100, retries: 1, maxRetryTime: 300 },
    });
    await ensureTopics(kafka, [{ topic: `${prefix}.quiet`, numPartitions: 1 }]);
    const transport = new KafkaBatchTransport({
      kafka,
      groupId: `${prefix}.group`,
      topicFor: (p) => `${prefix}.${p}`,
      logger,
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
    });
    app = await NestFactory.createMicroservice(QuietModule, { strategy: transport, logger: false });
    await app.listen();
  });

  after(async () => {
    await broker.destroy();
  });

  it('stops restarting the consumer once closed', async () => {
    // Frozen, not stopped: a restart's connect then hangs until its timeout, so close() below
    // lands while a restart is connecting (with a stopped broker it is refused at once).
    await broker.pause();
    await eventually(() => (crashes(lines).some((l) => l.includes('"restart":true')) ? true : undefined), {
      timeoutMs: 40_000,
      what: 'the consumer crashed and was restarted while the broker is away',
    });
    await sleep(1_000);
    await app.close();
    const closedAt = lines.length;
    // A restart that was connecting when close() ran crashes within a few seconds here.
    await sleep(8_000);
    const after = crashes(lines.slice(closedAt));
    assert.ok(
      after.every((l) => l.includes('"restart":false')),
      `no restart after close, got: ${after.join('\n')}`,
    );
  });
});
