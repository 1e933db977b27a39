import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Global,
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
import { OUTBOX_SLOT } from '#health';
import { KAFKA, KAFKA_TOPIC_PREFIX } from '#messaging';
import { LOGGER, METRICS_REGISTRY, TRACING, type AppLogger, type Tracing } from '#observability';
import { OPERATIONS } from '#operations';
import {
  BatchSubmitWorker,
  FundsView,
  IntakeService,
  PayoutExecutor,
  QueryService,
  WebhookIntake,
} from '#pipeline';
import { ProviderPort } from '#provider-client';
import { CommandsController } from './commands.controller.js';
import { QueriesController } from './queries.controller.js';
import { SERVICE_CONFIG } from './infrastructure.module.js';
import { createPipeline, type Pipeline } from './pipeline.factory.js';
import { type ServiceConfig } from './service.config.js';

/** The whole pipeline (createPipeline); the class tokens below hand out its parts. */
const PIPELINE = Symbol('PIPELINE');

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
    @Inject(PIPELINE) private readonly p: Pipeline,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const roles = new Set(this.config.pipeline.SERVICE_ROLES);
    if (roles.has('relay')) {
      await this.p.relay.start();
      await this.p.walRelay?.start();
    }
    if (roles.has('executor')) {
      this.p.executor.start();
      if (!roles.has('intake')) await this.p.newPayouts.start();
      // A batch call is slow (hundreds of entries) and must not hold up single payouts.
      this.p.batchSubmits.start();
    }
    if (roles.has('reconciler')) {
      this.p.reconciler.start();
      this.p.batchChecks.start();
      this.p.historyMaintenance.start();
      this.p.approvalExpiry.start();
      this.p.balanceReader.start();
    }
    if (roles.has('webhooks')) {
      this.p.webhookWorker.start();
      await this.p.newWebhooks.start();
    }
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
    const claimsEnded = Promise.all([
      this.p.executor.stop(true),
      this.p.batchSubmits.stop(),
      this.p.reconciler.stop(),
      this.p.batchChecks.stop(),
      this.p.historyMaintenance.stop(),
      this.p.approvalExpiry.stop(),
      this.p.balanceReader.stop(),
      this.p.webhookWorker.stop(),
    ]);
    const drained = await this.p.submission.drain(deadline);
    if (!drained) await this.p.submission.abandonInFlight();
    else {
      // Status checks (no initiation in them) are only waited for until the deadline.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        claimsEnded,
        new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
    }
    this.p.leases.stop();
    await this.p.newPayouts.stop();
    await this.p.newWebhooks.stop();
    this.logger.info({ drained }, 'workers stopped');
    if (this.config.pipeline.SERVICE_ROLES.includes('relay')) await this.flushEvents();
    // The WAL relay first: what it parks in the table on its way out, the table relay may still send.
    await this.p.walRelay?.stop();
    await this.p.relay.stop();
    // Closing the HTTP pool waits for the requests in it: after an abandoned call, the process
    // exit ends that one.
    const closing = this.p.provider.close();
    await Promise.all([this.p.dlq.close(), this.p.queries.close(), drained ? closing : undefined]);
  }

  /** Publishes the events of the outcomes just recorded, until none is left or the grace ends. */
  private async flushEvents(): Promise<void> {
    const until = Date.now() + shutdownReserveMs(this.config.core.SHUTDOWN_GRACE_MS) / 4;
    try {
      await this.p.walRelay?.flush(until);
      await this.p.relay.flush(until);
    } catch (e) {
      this.logger.warn({ err: e }, 'shutdown: publishing the last events failed; the next relay sends them');
    }
  }
}

/** A provider of one part of the pipeline under its class token; the compiler checks the type. */
function part<K extends keyof Pipeline>(
  token: abstract new (...args: never[]) => Pipeline[K],
  key: K,
): Provider {
  return { provide: token, inject: [PIPELINE], useFactory: (p: Pipeline) => p[key] };
}

const providers: Provider[] = [
  {
    provide: PIPELINE,
    inject: [SERVICE_CONFIG, PG_POOL, KAFKA, KAFKA_TOPIC_PREFIX, METRICS_REGISTRY, LOGGER, TRACING],
    useFactory: (
      config: ServiceConfig,
      pool: pg.Pool,
      kafka: Kafka,
      topicPrefix: string,
      registry: Registry,
      logger: AppLogger,
      tracing: Tracing,
    ): Pipeline =>
      createPipeline({
        config,
        pool,
        kafka,
        topicPrefix,
        registry,
        logger,
        tracing,
        // One owner per service instance, even with several in one process.
        owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
      }),
  },
  part(IntakeService, 'intake'),
  part(PayoutExecutor, 'executor'),
  part(BatchSubmitWorker, 'batchSubmits'),
  part(QueryService, 'queries'),
  part(ProviderPort, 'provider'),
  part(FundsView, 'funds'),
  // The operations use cases, one object (OpsController runs them by the route registry).
  { provide: OPERATIONS, inject: [PIPELINE], useFactory: (p: Pipeline) => p.operations },
  part(WebhookIntake, 'webhookIntake'),
  { provide: OUTBOX_SLOT, inject: [PIPELINE], useFactory: (p: Pipeline) => p.slotHealth },
  Workers,
];

/**
 * The payout pipeline, wired from configuration. Controllers exist only for this instance's roles.
 * Global: the operations module uses its use cases (on the pipeline's repository and
 * ledger step), the observability module its provider port.
 */
@Global()
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
      global: true,
      exports: [ProviderPort, FundsView, OUTBOX_SLOT, OPERATIONS],
    };
  }
}
