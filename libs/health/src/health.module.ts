import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { KafkaHealthIndicator } from './kafka.health.js';
import { PostgresHealthIndicator } from './postgres.health.js';

/** Needs PG_POOL and KAFKA from the importing app. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [PostgresHealthIndicator, KafkaHealthIndicator],
  exports: [PostgresHealthIndicator, KafkaHealthIndicator],
})
export class HealthModule {}
