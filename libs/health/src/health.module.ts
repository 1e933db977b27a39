import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { ConsumerHealthIndicator } from './consumer.health.js';
import { KafkaHealthIndicator } from './kafka.health.js';
import { PostgresHealthIndicator } from './postgres.health.js';
import { OutboxSlotHealthIndicator } from './outbox-slot.health.js';
import { ProviderHealthIndicator } from './provider.health.js';

/**
 * Needs PG_POOL and KAFKA from the importing app; PROVIDER_ACCESS if it calls the provider,
 * CONSUMER_FAILURES if it consumes Kafka, OUTBOX_SLOT if it writes events into the WAL.
 */
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [
    PostgresHealthIndicator,
    KafkaHealthIndicator,
    ProviderHealthIndicator,
    ConsumerHealthIndicator,
    OutboxSlotHealthIndicator,
  ],
  exports: [
    PostgresHealthIndicator,
    KafkaHealthIndicator,
    ProviderHealthIndicator,
    ConsumerHealthIndicator,
    OutboxSlotHealthIndicator,
  ],
})
export class HealthModule {}
