import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { CONSUMER_FAILURES, type ConsumerFailures } from '#messaging';

/** Failed deliveries in a row after which a partition counts as stalled (kafkajs retries with backoff). */
export const STALLED_AFTER_FAILURES = 3;

/**
 * The consumer is ready unless a partition's batch has failed STALLED_AFTER_FAILURES times in a
 * row: then nothing behind it on that partition is consumed, while Postgres and Kafka may both
 * answer. Green again after that partition's next batch commits (or it is assigned elsewhere).
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
    if (stalled.length === 0) return indicator.up();
    return indicator.down({
      message: stalled
        .map((s) => `${s.topic}[${s.partition}]: ${s.failures} failed deliveries in a row (${s.lastError})`)
        .join('; '),
      partitions: stalled.map((s) => ({ ...s, since: s.since.toISOString() })),
    });
  }
}
