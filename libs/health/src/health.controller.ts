import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ConsumerHealthIndicator } from './consumer.health.js';
import { KafkaHealthIndicator } from './kafka.health.js';
import { PostgresHealthIndicator } from './postgres.health.js';
import { OutboxSlotHealthIndicator } from './outbox-slot.health.js';
import { ProviderHealthIndicator } from './provider.health.js';

/**
 * `/health/live` says only whether this process can serve; it never depends on other systems,
 * so an outage of Postgres or Kafka does not get every pod restarted. `/health/ready` checks the
 * dependencies and goes 503, naming the one that failed; `provider` is down while the provider
 * rejects our credentials or source address (fatal-config), which no restart would fix either;
 * `consumer` is down while a partition's batch keeps failing (the partition is stalled);
 * `outboxSlot` while the WAL outbox's replication slot is invalidated or missing (ADR 0023).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly postgres: PostgresHealthIndicator,
    private readonly kafka: KafkaHealthIndicator,
    private readonly provider: ProviderHealthIndicator,
    private readonly consumer: ConsumerHealthIndicator,
    private readonly outboxSlot: OutboxSlotHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.postgres.check(),
      () => this.kafka.check(),
      () => this.provider.check(),
      () => this.consumer.check(),
      () => this.outboxSlot.check(),
    ]);
  }
}
