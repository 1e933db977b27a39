import type pg from 'pg';
import { type Kafka } from 'kafkajs';
import { inTransaction } from '#database';
import { type AppLogger, NOOP_TRACING, Poller, type Tracing, type WorkerMetricsPort } from '#observability';
import { type OutboxRelaySettings } from './outbox.config.js';
import { noopOutboxMetrics, type OutboxMetrics } from './outbox.metrics.js';
import { OutboxListener } from './outbox-listener.js';
import { OutboxPublisher, type PublishOutcome } from './outbox-publisher.js';
import { OutboxRepository } from './outbox.repository.js';
import { type OutboxRow, type ReplayResult } from './outbox.types.js';

export interface OutboxRelayDeps {
  readonly pool: pg.Pool;
  /** For the dedicated LISTEN connection (the pool's connections come and go). */
  readonly databaseUrl: string;
  readonly kafka: Kafka;
  readonly topicPrefix: string;
  readonly logger: AppLogger;
  readonly settings: OutboxRelaySettings;
  readonly metrics?: OutboxMetrics;
  readonly repository?: OutboxRepository;
  /**
   * A producer span per send, in the trace of the rows' `traceparent` headers (one trace: its
   * child; several: links to each). The headers themselves are sent as stored (ADR 0015).
   */
  readonly tracing?: Tracing;
  /** Counts failed rounds (payouts_worker_failures_total{worker="outbox_relay"}). */
  readonly workerMetrics?: WorkerMetricsPort;
}

export interface RoundResult {
  readonly claimed: number;
  readonly published: number;
  readonly failed: number;
  readonly dead: number;
}

/**
 * Publishes outbox rows to Kafka, head of each key only, in rounds: claim up to `batchSize` heads
 * under row locks, send them in one request, mark them in one UPDATE, commit. Any number of
 * instances may run against one table (docs/adr/0006-outbox-relay.md).
 */
export class OutboxRelay {
  private readonly repo: OutboxRepository;
  private readonly metrics: OutboxMetrics;
  private readonly publisher: OutboxPublisher;
  private readonly listener: OutboxListener;
  private readonly log: AppLogger;
  private readonly poller: Poller;
  private purgeTimer: NodeJS.Timeout | undefined;
  private purging: Promise<unknown> | undefined;

  constructor(private readonly deps: OutboxRelayDeps) {
    this.repo = deps.repository ?? new OutboxRepository();
    this.metrics = deps.metrics ?? noopOutboxMetrics;
    this.log = deps.logger.child({ component: 'outbox-relay' });
    this.publisher = new OutboxPublisher({
      kafka: deps.kafka,
      topicPrefix: deps.topicPrefix,
      logger: deps.logger,
      maxMessageBytes: deps.settings.maxMessageBytes,
      sendTimeoutMs: deps.settings.sendTimeoutMs,
    });
    this.listener = new OutboxListener({
      databaseUrl: deps.databaseUrl,
      logger: deps.logger,
      onWake: () => this.wake(),
    });
    // A full batch means more is waiting: go again at once. After errors, back off up to the poll.
    this.poller = new Poller({
      name: 'outbox_relay',
      logger: this.log,
      metrics: deps.workerMetrics,
      step: async () => ((await this.round()).claimed >= deps.settings.batchSize ? 'busy' : 'idle'),
      pollMs: deps.settings.pollIntervalMs,
      backoff: { maxMs: deps.settings.pollIntervalMs },
      failureMessage: 'outbox relay round failed',
    });
  }

  get isRunning(): boolean {
    return this.poller.running;
  }

  /** Whether the LISTEN connection is up (for a health indicator; polling works without it). */
  get isListening(): boolean {
    return this.listener.listening;
  }

  async start(): Promise<void> {
    if (this.poller.running) return;
    // Kafka being down at boot is not fatal: rounds connect again and back off until it is up.
    await this.publisher
      .connect()
      .catch((e: unknown) => this.log.warn({ err: e }, 'Kafka not reachable yet'));
    await this.listener.start();
    this.poller.start();
    if (this.deps.settings.retentionHours > 0) this.schedulePurge();
    this.log.info({ batchSize: this.deps.settings.batchSize }, 'outbox relay started');
  }

  /** With a retention, published rows stay until the purge job deletes them. */
  private schedulePurge(): void {
    this.purgeTimer = setInterval(() => {
      this.purging ??= this.purge()
        .catch((e: unknown) => this.log.error({ err: e }, 'outbox purge failed'))
        .finally(() => (this.purging = undefined));
    }, this.deps.settings.purgeIntervalMs);
    this.purgeTimer.unref();
  }

  /** Lets the round in flight finish (its rows are marked), then closes the producer and LISTEN. */
  async stop(): Promise<void> {
    const wasRunning = this.poller.running;
    clearInterval(this.purgeTimer);
    this.purgeTimer = undefined;
    await this.poller.stop();
    await this.purging;
    // Also when never started: a round() called directly may have opened the producer.
    await this.listener.stop();
    await this.publisher.disconnect();
    if (wasRunning) this.log.info('outbox relay stopped');
  }

  /** Asks for a round now (the NOTIFY handler calls this; so may code that just committed rows). */
  wake(): void {
    this.poller.wake();
  }

  /**
   * Publishes what is pending until nothing is, or until `untilMs` (shutdown: the events of the
   * outcomes just recorded). A round that claims nothing while rows are still pending means
   * another holds them (this relay's own loop, mid-send) or they wait for a retry: it looks again
   * shortly rather than ending with them unsent.
   */
  async flush(untilMs: number): Promise<void> {
    while (Date.now() < untilMs) {
      if ((await this.round()).claimed > 0) continue;
      if ((await this.repo.stats(this.deps.pool)).pending === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** One claim-send-mark cycle. Public so tests and tools can drive the relay step by step. */
  async round(): Promise<RoundResult> {
    const { settings } = this.deps;
    // If the COMMIT fails after a successful send, the rows stay pending and are sent again
    // later: at-least-once, never out of order.
    const r = await inTransaction(this.deps.pool, async (client) => {
      const rows = await this.repo.claimHeads(client, settings.batchSize);
      if (rows.length === 0) return undefined;
      const outcome = await this.send(rows);
      const sent = outcome.sent.map((row) => row.id);
      const latencies =
        settings.retentionHours > 0
          ? await this.repo.markPublished(client, sent)
          : await this.repo.deletePublished(client, sent);
      const dead = await this.repo.markFailed(client, outcome.failed, settings);
      return { claimed: rows.length, outcome, latencies, dead };
    });
    if (!r) return { claimed: 0, published: 0, failed: 0, dead: 0 };
    const { outcome, dead } = r;
    this.metrics.published(r.latencies);
    if (outcome.failed.length > 0) {
      this.metrics.failed(outcome.failed.length - dead.length, dead.length);
      this.log.warn(
        { failed: outcome.failed.length, dead: dead.length, firstError: outcome.failed[0]?.error },
        'outbox rows failed to publish',
      );
      if (dead.length > 0)
        this.log.error({ ids: dead }, 'outbox rows are dead and block their keys until replayed');
    }
    return {
      claimed: r.claimed,
      published: outcome.sent.length,
      failed: outcome.failed.length,
      dead: dead.length,
    };
  }

  private send(rows: readonly OutboxRow[]): Promise<PublishOutcome> {
    const tracing = this.deps.tracing ?? NOOP_TRACING;
    if (!tracing.enabled) return this.publisher.publish(rows);
    const topics = [...new Set(rows.map((r) => r.topic))].join(' ');
    return tracing.inSpan(
      `send ${topics}`,
      {
        kind: 'producer',
        parents: rows.map((r) => r.headers['traceparent']),
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': topics,
          'messaging.batch.message_count': rows.length,
        },
      },
      async (span) => {
        const outcome = await this.publisher.publish(rows);
        span.setAttributes({
          'payouts.outbox.sent': outcome.sent.length,
          'payouts.outbox.failed': outcome.failed.length,
        });
        return outcome;
      },
    );
  }

  /** Deletes published rows older than the retention, in bounded batches. Returns how many. */
  async purge(): Promise<number> {
    const { retentionHours, purgeBatchSize } = this.deps.settings;
    let total = 0;
    for (;;) {
      const n = await this.repo.purgePublished(this.deps.pool, retentionHours, purgeBatchSize);
      total += n;
      if (n < purgeBatchSize) break;
    }
    if (total > 0) this.log.info({ deleted: total }, 'purged published outbox rows');
    return total;
  }

  /** Sends a dead row (by id or event id) back to pending with attempts reset, and wakes the relay. */
  async replayDead(idOrEventId: string): Promise<ReplayResult> {
    const result = await this.repo.replayDead(this.deps.pool, idOrEventId);
    if (result === 'replayed') this.wake();
    this.log.info({ result }, 'dead outbox row replay');
    return result;
  }
}
