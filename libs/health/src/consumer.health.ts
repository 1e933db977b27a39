import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { CONSUMER_FAILURES, type ConsumerFailures } from '#messaging';

/** Failed deliveries in a row after which a partition counts as stalled (kafkajs retries with backoff). */
export const STALLED_AFTER_FAILURES = 3;

/**
 * How long a group's consumer may be away (crashed, restarting or being recreated, not yet back
 * in its group) before the instance is not ready. kafkajs' own restarts and the transport's
 * recreations (1, 2, 4, 8, 16 s apart) take a few seconds; longer, nothing reads the topic.
 */
export const CONSUMER_STOPPED_AFTER_MS = 30_000;

/**
 * The consumer is ready unless a partition's batch has failed STALLED_AFTER_FAILURES times in a
 * row: then nothing behind it on that partition is consumed, while Postgres and Kafka may both
 * answer. Green again after that partition's next batch commits (or it is assigned elsewhere).
 * Red too while a group's consumer has been stopped for CONSUMER_STOPPED_AFTER_MS: it crashed and
 * neither kafkajs nor the transport got it back into its group.
 */
@Injectable()
export class ConsumerHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Optional() @Inject(CONSUMER_FAILURES) private readonly failures?: ConsumerFailures,
  ) {}

  check(key = 'consumer') {
    const indicator = this.health.check(key);
    const stalled = this.failures?.stalled(STALLED_AFTER_FAILURES) ?? [];
    const stopped = this.failures?.stoppedConsumers(CONSUMER_STOPPED_AFTER_MS) ?? [];
    if (stalled.length === 0 && stopped.length === 0) return indicator.up();
    return indicator.down({
      message: [
        ...stopped.map(
          (s) =>
            `${s.groupId}: consumer not running since ${s.since.toISOString()}, ${s.crashes} crash(es) (${s.lastError})`,
        ),
        ...stalled.map(
          (s) => `${s.topic}[${s.partition}]: ${s.failures} failed deliveries in a row (${s.lastError})`,
        ),
      ].join('; '),
      partitions: stalled.map((s) => ({ ...s, since: s.since.toISOString() })),
      consumers: stopped.map((s) => ({ ...s, since: s.since.toISOString() })),
    });
  }
}
