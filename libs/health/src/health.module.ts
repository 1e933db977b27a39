import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { KafkaHealthIndicator } from './kafka.health.js';
import { PostgresHealthIndicator } from './postgres.health.js';
import { ProviderHealthIndicator } from './provider.health.js';

/** Needs PG_POOL and KAFKA from the importing app; PROVIDER_ACCESS if it calls the provider. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [PostgresHealthIndicator, KafkaHealthIndicator, ProviderHealthIndicator],
  exports: [PostgresHealthIndicator, KafkaHealthIndicator, ProviderHealthIndicator],
})
export class HealthModule {}
