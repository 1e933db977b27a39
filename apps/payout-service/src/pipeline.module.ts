import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
  type Provider,
} from '@nestjs/common';
import { type Kafka } from 'kafkajs';
import type pg from 'pg';
import { type Registry } from 'prom-client';
import { PG_POOL } from '#database';
import {
  BatchRepository,
  DeadLetterRepository,
  PayoutRepository,
  SecretsCipher,
  WithdrawalQuotaRepository,
} from '#ledger';
import { KAFKA, KAFKA_TOPIC_PREFIX } from '#messaging';
import { LOGGER, METRICS_REGISTRY, type AppLogger } from '#observability';
import { OutboxRelay, OutboxRepository, outboxRelaySettings, PromOutboxMetrics } from '#outbox';
import {
  BatchProcessor,
  IntakeService,
  KafkaDeadLetterPublisher,
  OutcomeRecorder,
  PayoutExecutor,
  PayoutReconciler,
  PayoutSubmission,
  PipelineMetrics,
  QueryService,
  ReconcilerMetrics,
} from '#pipeline';
import { createProviderClient, ProviderClient, providerClientOptionsFromConfig } from '#provider-client';
import { CommandsController } from './commands.controller.js';
import { QueriesController } from './queries.controller.js';
import { SERVICE_CONFIG } from './infrastructure.module.js';
import { type ServiceConfig } from './service.config.js';

/** Starts the background workers this instance's roles ask for, and stops them first on shutdown. */
@Injectable()
class Workers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(PayoutExecutor) private readonly executor: PayoutExecutor,
    @Inject(PayoutReconciler) private readonly reconciler: PayoutReconciler,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(KafkaDeadLetterPublisher) private readonly dlq: KafkaDeadLetterPublisher,
    @Inject(QueryService) private readonly queries: QueryService,
    @Inject(ProviderClient) private readonly client: ProviderClient,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const roles = new Set(this.config.pipeline.SERVICE_ROLES);
    if (roles.has('relay')) await this.relay.start();
    if (roles.has('executor')) this.executor.start();
    if (roles.has('reconciler')) this.reconciler.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    // New work stops first; the relay goes last so the events of finished work still leave.
    await Promise.all([this.executor.stop(), this.reconciler.stop()]);
    await this.relay.stop();
    await Promise.all([this.dlq.close(), this.queries.close(), this.client.close()]);
  }
}

const OWNER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

const providers: Provider[] = [
  {
    provide: PayoutRepository,
    inject: [SERVICE_CONFIG],
    useFactory: (c: ServiceConfig) =>
      new PayoutRepository({ reversalWatchFirstMs: c.pipeline.REVERSAL_WATCH_SCHEDULE[0] ?? null }),
  },
  BatchRepository,
  WithdrawalQuotaRepository,
  DeadLetterRepository,
  OutboxRepository,
  {
    provide: SecretsCipher,
    inject: [SERVICE_CONFIG],
    useFactory: (c: ServiceConfig) =>
      SecretsCipher.fromConfig(
        c.ledger.LEDGER_ENCRYPTION_KEY_ID,
        c.ledger.LEDGER_ENCRYPTION_KEY,
        c.ledger.LEDGER_PREVIOUS_KEYS,
      ),
  },
  {
    provide: PipelineMetrics,
    inject: [METRICS_REGISTRY],
    useFactory: (r: Registry) => new PipelineMetrics(r),
  },
  {
    provide: ReconcilerMetrics,
    inject: [METRICS_REGISTRY],
    useFactory: (r: Registry) => new ReconcilerMetrics(r),
  },
  {
    provide: ProviderClient,
    inject: [SERVICE_CONFIG, METRICS_REGISTRY, LOGGER],
    useFactory: (c: ServiceConfig, registry: Registry, logger: AppLogger) =>
      createProviderClient(providerClientOptionsFromConfig(c.providerClient, c.providerHosts), {
        registry,
        logger: logger.child({ component: 'provider-client' }),
      }),
  },
  {
    provide: KafkaDeadLetterPublisher,
    inject: [KAFKA, KAFKA_TOPIC_PREFIX],
    useFactory: (k: Kafka, prefix: string) => new KafkaDeadLetterPublisher(k, prefix),
  },
  {
    provide: IntakeService,
    inject: [
      SERVICE_CONFIG,
      PG_POOL,
      PayoutRepository,
      BatchRepository,
      WithdrawalQuotaRepository,
      DeadLetterRepository,
      OutboxRepository,
      KafkaDeadLetterPublisher,
      SecretsCipher,
      PipelineMetrics,
      LOGGER,
    ],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      payouts: PayoutRepository,
      batches: BatchRepository,
      quota: WithdrawalQuotaRepository,
      deadLetters: DeadLetterRepository,
      outbox: OutboxRepository,
      dlq: KafkaDeadLetterPublisher,
      cipher: SecretsCipher,
      metrics: PipelineMetrics,
      logger: AppLogger,
    ) =>
      new IntakeService({
        pool,
        payouts,
        batches,
        quota,
        deadLetters,
        outbox,
        dlq,
        cipher,
        metrics,
        logger: logger.child({ component: 'intake' }),
        defaultAccountId: c.providerClient.PROVIDER_ACCOUNT_ID,
        maxCommandBytes: c.pipeline.MAX_COMMAND_BYTES,
      }),
  },
  {
    provide: OutcomeRecorder,
    inject: [SERVICE_CONFIG, PG_POOL, PayoutRepository, OutboxRepository, LOGGER],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      payouts: PayoutRepository,
      outbox: OutboxRepository,
      logger: AppLogger,
    ) =>
      new OutcomeRecorder(pool, payouts, outbox, logger.child({ component: 'executor' }), {
        lingerMs: c.pipeline.OUTCOME_LINGER_MS,
        maxBatch: c.pipeline.OUTCOME_MAX_BATCH,
      }),
  },
  {
    provide: PayoutSubmission,
    inject: [SERVICE_CONFIG, OutcomeRecorder, ProviderClient, SecretsCipher, PipelineMetrics, LOGGER],
    useFactory: (
      c: ServiceConfig,
      recorder: OutcomeRecorder,
      client: ProviderClient,
      cipher: SecretsCipher,
      metrics: PipelineMetrics,
      logger: AppLogger,
    ) =>
      new PayoutSubmission(
        { recorder, client, cipher, metrics, logger: logger.child({ component: 'executor' }) },
        {
          firstCheckMs: c.pipeline.RECONCILE_SCHEDULE[0] ?? 30_000,
          resendMs: c.pipeline.RESEND_DELAY_MS,
          fatalConfigMs: c.pipeline.FATAL_CONFIG_RETRY_MS,
        },
      ),
  },
  {
    provide: BatchProcessor,
    inject: [
      SERVICE_CONFIG,
      PG_POOL,
      BatchRepository,
      OutboxRepository,
      ProviderClient,
      ReconcilerMetrics,
      LOGGER,
    ],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      batches: BatchRepository,
      outbox: OutboxRepository,
      client: ProviderClient,
      metrics: ReconcilerMetrics,
      logger: AppLogger,
    ) =>
      new BatchProcessor(
        { pool, batches, outbox, client, metrics, logger: logger.child({ component: 'batches' }) },
        {
          owner: OWNER,
          leaseMs: c.pipeline.EXECUTOR_LEASE_MS,
          schedule: c.pipeline.RECONCILE_SCHEDULE,
          resendMs: c.pipeline.RESEND_DELAY_MS,
          maxSendAttempts: c.pipeline.MAX_SEND_ATTEMPTS,
        },
      ),
  },
  {
    provide: PayoutExecutor,
    inject: [
      SERVICE_CONFIG,
      PG_POOL,
      PayoutRepository,
      OutboxRepository,
      PayoutSubmission,
      BatchProcessor,
      LOGGER,
    ],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      payouts: PayoutRepository,
      outbox: OutboxRepository,
      submission: PayoutSubmission,
      batches: BatchProcessor,
      logger: AppLogger,
    ) =>
      new PayoutExecutor(
        { pool, payouts, outbox, batches, logger: logger.child({ component: 'executor' }) },
        {
          owner: OWNER,
          concurrency: c.pipeline.EXECUTOR_CONCURRENCY,
          leaseMs: c.pipeline.EXECUTOR_LEASE_MS,
          idlePollMs: c.pipeline.EXECUTOR_IDLE_POLL_MS,
        },
        submission,
      ),
  },
  {
    provide: PayoutReconciler,
    inject: [
      SERVICE_CONFIG,
      PG_POOL,
      PayoutRepository,
      OutboxRepository,
      ProviderClient,
      PayoutSubmission,
      ReconcilerMetrics,
      BatchProcessor,
      LOGGER,
    ],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      payouts: PayoutRepository,
      outbox: OutboxRepository,
      client: ProviderClient,
      submission: PayoutSubmission,
      metrics: ReconcilerMetrics,
      batches: BatchProcessor,
      logger: AppLogger,
    ) =>
      new PayoutReconciler(
        {
          pool,
          payouts,
          outbox,
          client,
          submission,
          metrics,
          batches,
          logger: logger.child({ component: 'reconciler' }),
        },
        {
          owner: OWNER,
          leaseMs: c.pipeline.EXECUTOR_LEASE_MS,
          batchSize: c.pipeline.RECONCILER_BATCH_SIZE,
          concurrency: c.pipeline.RECONCILER_CONCURRENCY,
          pollMs: c.pipeline.RECONCILER_POLL_MS,
          schedule: c.pipeline.RECONCILE_SCHEDULE,
          maxSendAttempts: c.pipeline.MAX_SEND_ATTEMPTS,
          reversalWatch: c.pipeline.REVERSAL_WATCH_SCHEDULE,
        },
      ),
  },
  {
    provide: OutboxRelay,
    inject: [SERVICE_CONFIG, PG_POOL, KAFKA, KAFKA_TOPIC_PREFIX, OutboxRepository, METRICS_REGISTRY, LOGGER],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      kafka: Kafka,
      topicPrefix: string,
      repository: OutboxRepository,
      registry: Registry,
      logger: AppLogger,
    ) =>
      new OutboxRelay({
        pool,
        databaseUrl: c.core.DATABASE_URL,
        kafka,
        topicPrefix,
        logger,
        settings: outboxRelaySettings(c.outbox),
        repository,
        metrics: new PromOutboxMetrics(registry, () => repository.stats(pool)),
      }),
  },
  {
    provide: QueryService,
    inject: [SERVICE_CONFIG, KAFKA, KAFKA_TOPIC_PREFIX, ProviderClient, METRICS_REGISTRY, LOGGER],
    useFactory: (
      c: ServiceConfig,
      kafka: Kafka,
      topicPrefix: string,
      client: ProviderClient,
      registry: Registry,
      logger: AppLogger,
    ) =>
      new QueryService({
        kafka,
        client,
        registry,
        topicPrefix,
        logger: logger.child({ component: 'queries' }),
        defaultAccountId: c.providerClient.PROVIDER_ACCOUNT_ID,
      }),
  },
  Workers,
];

/** The payout pipeline, wired from configuration. Controllers exist only for this instance's roles. */
@Module({})
export class PipelineModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    const roles = new Set(config.pipeline.SERVICE_ROLES);
    return {
      module: PipelineModule,
      controllers: [
        ...(roles.has('intake') ? [CommandsController] : []),
        ...(roles.has('queries') ? [QueriesController] : []),
      ],
      providers,
      exports: [ProviderClient, OutboxRelay, PayoutReconciler, PayoutRepository],
    };
  }
}
