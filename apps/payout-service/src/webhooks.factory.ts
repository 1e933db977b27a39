import type pg from 'pg';
import { type Registry } from 'prom-client';
import {
  type BatchRepository,
  type LedgerOutbox,
  type PayoutLedger,
  type PayoutRepository,
  WebhookRepository,
} from '#ledger';
import { type AppLogger, type WorkerMetricsPort } from '#observability';
import { OutboxListener } from '#outbox';
import {
  WebhookHintWorker,
  WebhookIntake,
  webhookIntakeSettings,
  WebhookMetrics,
  webhookWorkerSettings,
} from '#pipeline';
import { type ProviderPort } from '#provider-client';
import { type ServiceConfig } from './service.config.js';

export interface WebhooksInputs {
  readonly config: ServiceConfig;
  readonly pool: pg.Pool;
  readonly registry: Registry;
  readonly logger: AppLogger;
  readonly payouts: PayoutRepository;
  readonly batches: BatchRepository;
  /** Where the worker's events go: table rows or WAL messages (OUTBOX_TRANSPORT). */
  readonly outbox: LedgerOutbox;
  readonly ledger: PayoutLedger;
  /**
   * The provider: its webhook readers and meanings, and its configured accounts (one webhook
   * endpoint each, keyed by its client secret).
   */
  readonly provider: ProviderPort;
  /** Counts the hint worker's failed rounds. */
  readonly workerMetrics?: WorkerMetricsPort;
  /** A webhook said an account's balance moved: read it again (the balance reader, issue 32). */
  readonly onBalanceNotice?: (accountId: string) => void;
}

/**
 * The `webhooks` role (ADR 0013): the intake behind the webhook listener and the worker that
 * turns kept webhooks into hints, sharing the pipeline's repositories and ledger step. A worker in
 * another process than the listener hears of new webhooks from Postgres (`webhook_received`).
 */
export function createWebhooks(i: WebhooksInputs) {
  const { pool, config } = i;
  const repository = new WebhookRepository();
  const metrics = new WebhookMetrics(i.registry, () => repository.backlog(pool));
  const logger = i.logger.child({ component: 'webhooks' });
  const webhookWorker = new WebhookHintWorker(
    {
      pool,
      webhooks: repository,
      payouts: i.payouts,
      batches: i.batches,
      ledger: i.ledger,
      outbox: i.outbox,
      metrics,
      logger,
      workerMetrics: i.workerMetrics,
      provider: i.provider.webhooks,
      onBalanceNotice: i.onBalanceNotice,
    },
    webhookWorkerSettings(config.webhooks),
  );
  const webhookIntake = new WebhookIntake(
    {
      pool,
      webhooks: repository,
      secrets: i.provider.accounts.webhookKeys,
      pinnedVersions: i.provider.accounts.pinnedWebhookVersions,
      metrics,
      provider: i.provider.webhooks,
      logger,
      onStored: () => webhookWorker.wake(),
    },
    webhookIntakeSettings(config.webhooks),
  );
  const newWebhooks = new OutboxListener({
    databaseUrl: config.core.DATABASE_URL,
    logger,
    channel: 'webhook_received',
    onWake: () => webhookWorker.wake(),
  });
  return { webhookIntake, webhookWorker, newWebhooks };
}
