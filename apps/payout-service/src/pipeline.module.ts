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
  BatchLedger,
  BatchRepository,
  DeadLetterRepository,
  PayoutLedger,
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
  LeaseKeeper,
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

/** The lease_owner of this service instance's claims (one per instance, even in one process). */
const WORKER_OWNER = Symbol('WORKER_OWNER');

/**
 * The part of the shutdown grace kept for what follows the drain: marking calls still in flight
 * UNKNOWN, publishing the last events, closing connections (leaving the Kafka group alone takes
 * about 5 s).
 */
export function shutdownReserveMs(graceMs: number): number {
  return Math.min(10_000, Math.floor(graceMs / 3));
}

/** Starts the background workers this instance's roles ask for, and stops them first on shutdown. */
@Injectable()
class Workers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(PayoutExecutor) private readonly executor: PayoutExecutor,
    @Inject(PayoutReconciler) private readonly reconciler: PayoutReconciler,
    @Inject(PayoutSubmission) private readonly submission: PayoutSubmission,
    @Inject(LeaseKeeper) private readonly leases: LeaseKeeper,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(KafkaDeadLetterPublisher) private readonly dlq: KafkaDeadLetterPublisher,
    @Inject(QueryService) private readonly queries: QueryService,
    @Inject(ProviderClient) private readonly client: ProviderClient,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const roles = new Set(this.config.pipeline.SERVICE_ROLES);
    if (roles.has('relay')) await this.relay.start();
    if (roles.has('executor')) this.executor.start();
    if (roles.has('reconciler')) this.reconciler.start();
  }

  /**
   * New work stops first. Provider calls in flight keep their leases and may finish within the
   * grace period: their outcomes are recorded (a deploy must not leave them to a status check,
   * or worse, to a person). Calls still running near its end are marked UNKNOWN, so the next
   * instance asks the provider about them at once. The relay goes last so every event leaves.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const grace = this.config.core.SHUTDOWN_GRACE_MS;
    const deadline = Date.now() + grace - shutdownReserveMs(grace);
    const claimsEnded = Promise.all([this.executor.stop(true), this.reconciler.stop()]);
    const drained = await this.submission.drain(deadline);
    if (!drained) await this.submission.abandonInFlight();
    else {
      // Status checks (no initiation in them) are only waited for until the deadline.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        claimsEnded,
        new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
    }
    this.leases.stop();
    this.logger.info({ drained }, 'workers stopped');
    if (this.config.pipeline.SERVICE_ROLES.includes('relay')) await this.flushEvents();
    await this.relay.stop();
    // Closing the HTTP pool waits for the requests in it: after an abandoned call, the process
    // exit ends that one.
    const closing = this.client.close();
    await Promise.all([this.dlq.close(), this.queries.close(), drained ? closing : undefined]);
  }

  /** Publishes the events of the outcomes just recorded, until none is left or the grace ends. */
  private async flushEvents(): Promise<void> {
    const until = Date.now() + shutdownReserveMs(this.config.core.SHUTDOWN_GRACE_MS) / 4;
    try {
      while (Date.now() < until && (await this.relay.round()).claimed > 0);
    } catch (e) {
      this.logger.warn({ err: e }, 'shutdown: publishing the last events failed; the next relay sends them');
    }
  }
}

const providers: Provider[] = [
  {
    provide: WORKER_OWNER,
    useFactory: () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
  },
  {
    provide: LeaseKeeper,
    inject: [SERVICE_CONFIG, WORKER_OWNER, PG_POOL, PayoutRepository, PipelineMetrics, LOGGER],
    useFactory: (
      c: ServiceConfig,
      owner: string,
      pool: pg.Pool,
      payouts: PayoutRepository,
      metrics: PipelineMetrics,
      logger: AppLogger,
    ) =>
      new LeaseKeeper(
        pool,
        payouts,
        logger.child({ component: 'executor' }),
        {
          owner,
          leaseMs: c.pipeline.EXECUTOR_LEASE_MS,
          intervalMs: Math.max(50, Math.floor(c.pipeline.EXECUTOR_LEASE_MS / 4)),
        },
        () => metrics.leasesLost.inc(),
      ),
  },
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
    provide: PayoutLedger,
    inject: [PG_POOL, PayoutRepository, OutboxRepository, PipelineMetrics, LOGGER],
    useFactory: (
      pool: pg.Pool,
      payouts: PayoutRepository,
      outbox: OutboxRepository,
      metrics: PipelineMetrics,
      logger: AppLogger,
    ) =>
      new PayoutLedger({
        pool,
        payouts,
        outbox,
        logger,
        stale: (source) => metrics.staleResults.inc({ source }),
      }),
  },
  {
    provide: BatchLedger,
    inject: [PG_POOL, BatchRepository, OutboxRepository, PipelineMetrics, LOGGER],
    useFactory: (
      pool: pg.Pool,
      batches: BatchRepository,
      outbox: OutboxRepository,
      metrics: PipelineMetrics,
      logger: AppLogger,
    ) =>
      new BatchLedger({
        pool,
        batches,
        outbox,
        logger,
        stale: (source) => metrics.staleResults.inc({ source }),
      }),
  },
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
      PayoutLedger,
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
      ledger: PayoutLedger,
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
        ledger,
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
    inject: [SERVICE_CONFIG, PayoutLedger, LOGGER],
    useFactory: (c: ServiceConfig, ledger: PayoutLedger, logger: AppLogger) =>
      new OutcomeRecorder(ledger, logger.child({ component: 'executor' }), {
        lingerMs: c.pipeline.OUTCOME_LINGER_MS,
        maxBatch: c.pipeline.OUTCOME_MAX_BATCH,
      }),
  },
  {
    provide: PayoutSubmission,
    inject: [SERVICE_CONFIG, OutcomeRecorder, ProviderClient, SecretsCipher, LeaseKeeper, LOGGER],
    useFactory: (
      c: ServiceConfig,
      recorder: OutcomeRecorder,
      client: ProviderClient,
      cipher: SecretsCipher,
      leases: LeaseKeeper,
      logger: AppLogger,
    ) =>
      new PayoutSubmission(
        { recorder, client, cipher, leases, logger: logger.child({ component: 'executor' }) },
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
      BatchLedger,
      OutboxRepository,
      ProviderClient,
      ReconcilerMetrics,
      WORKER_OWNER,
      LOGGER,
    ],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      batches: BatchRepository,
      ledger: BatchLedger,
      outbox: OutboxRepository,
      client: ProviderClient,
      metrics: ReconcilerMetrics,
      owner: string,
      logger: AppLogger,
    ) =>
      new BatchProcessor(
        { pool, batches, ledger, outbox, client, metrics, logger: logger.child({ component: 'batches' }) },
        {
          owner,
          leaseMs: c.pipeline.EXECUTOR_LEASE_MS,
          schedule: c.pipeline.RECONCILE_SCHEDULE,
          resendMs: c.pipeline.RESEND_DELAY_MS,
          maxSendAttempts: c.pipeline.MAX_SEND_ATTEMPTS,
        },
      ),
  },
  {
    provide: PayoutExecutor,
    inject: [SERVICE_CONFIG, PayoutLedger, PayoutSubmission, BatchProcessor, WORKER_OWNER, LOGGER],
    useFactory: (
      c: ServiceConfig,
      ledger: PayoutLedger,
      submission: PayoutSubmission,
      batches: BatchProcessor,
      owner: string,
      logger: AppLogger,
    ) =>
      new PayoutExecutor(
        { ledger, batches, logger: logger.child({ component: 'executor' }) },
        {
          owner,
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
      PayoutLedger,
      ProviderClient,
      PayoutSubmission,
      ReconcilerMetrics,
      BatchProcessor,
      WORKER_OWNER,
      LOGGER,
    ],
    useFactory: (
      c: ServiceConfig,
      pool: pg.Pool,
      payouts: PayoutRepository,
      ledger: PayoutLedger,
      client: ProviderClient,
      submission: PayoutSubmission,
      metrics: ReconcilerMetrics,
      batches: BatchProcessor,
      owner: string,
      logger: AppLogger,
    ) =>
      new PayoutReconciler(
        {
          pool,
          payouts,
          ledger,
          client,
          submission,
          metrics,
          batches,
          logger: logger.child({ component: 'reconciler' }),
        },
        {
          owner,
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
      exports: [ProviderClient, OutboxRelay, PayoutReconciler, PayoutRepository, PayoutLedger],
    };
  }
}
