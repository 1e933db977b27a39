import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { type Kafka } from 'kafkajs';
import type pg from 'pg';
import { createPool, PG_POOL } from '#database';
import { CONSUMER_FAILURES, ConsumerFailures, createKafka, KAFKA, KAFKA_TOPIC_PREFIX } from '#messaging';
import {
  createMetricsRegistry,
  LOGGER,
  METRICS_REGISTRY,
  TRACING,
  type AppLogger,
  type Tracing,
} from '#observability';
import { type ServiceConfig } from './service.config.js';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

/** The process's connections to the outside, shared by every module of the service. */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(@Inject(PG_POOL) private readonly pool: pg.Pool) {}

  static forRoot(config: ServiceConfig, logger: AppLogger, tracing: Tracing): DynamicModule {
    const { core } = config;
    return {
      module: InfrastructureModule,
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: TRACING, useValue: tracing },
        { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry() },
        {
          provide: PG_POOL,
          useFactory: () =>
            createPool({
              url: core.DATABASE_URL,
              max: core.DATABASE_POOL_SIZE,
              applicationName: core.KAFKA_CLIENT_ID,
              onConnectionError: (e) =>
                logger.warn({ err: e }, 'an idle Postgres connection failed; the pool replaces it'),
            }),
        },
        {
          provide: KAFKA,
          useFactory: (): Kafka =>
            createKafka({ brokers: core.KAFKA_BROKERS, clientId: core.KAFKA_CLIENT_ID }, logger),
        },
        { provide: KAFKA_TOPIC_PREFIX, useValue: core.KAFKA_TOPIC_PREFIX },
        {
          provide: CONSUMER_FAILURES,
          // Reported under the logical topic name, a bounded label.
          useFactory: () => {
            const prefix = core.KAFKA_TOPIC_PREFIX ? `${core.KAFKA_TOPIC_PREFIX}.` : '';
            return new ConsumerFailures((t) => (prefix && t.startsWith(prefix) ? t.slice(prefix.length) : t));
          },
        },
      ],
      exports: [
        SERVICE_CONFIG,
        LOGGER,
        TRACING,
        METRICS_REGISTRY,
        PG_POOL,
        KAFKA,
        KAFKA_TOPIC_PREFIX,
        CONSUMER_FAILURES,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
