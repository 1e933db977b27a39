import { type Kafka } from 'kafkajs';
import type pg from 'pg';
import { type AppLogger, type PollOutcome, Poller, type WorkerMetricsPort } from '#observability';
import { type OutboxRelaySettings, type WalRelaySettings } from './outbox.config.js';
import { noopOutboxMetrics, type OutboxMetrics } from './outbox.metrics.js';
import { OutboxPublisher } from './outbox-publisher.js';
import { OutboxRepository, type ParkedEvent } from './outbox.repository.js';
import { type OutboxRow } from './outbox.types.js';
import { type WalEvent, bigIntToLsn, lsnToBigInt } from './wal-message.js';
import { WAL_PUBLICATION, WalOutboxRepository } from './wal-outbox.repository.js';
import { WalStream } from './wal-stream.js';

export interface WalRelayDeps {
  readonly pool: pg.Pool;
  /** The replication connection is a connection of its own (replication=database). */
  readonly databaseUrl: string;
  readonly kafka: Kafka;
  readonly topicPrefix: string;
  readonly logger: AppLogger;
  readonly settings: WalRelaySettings & Pick<OutboxRelaySettings, 'maxMessageBytes' | 'sendTimeoutMs'>;
  readonly metrics?: OutboxMetrics;
  readonly repository?: OutboxRepository;
  /** Called after events were parked in the table: the table relay publishes them. */
  readonly onParked?: () => void;
  /** Counts streams that ended in an error (payouts_worker_failures_total{worker="wal_relay"}). */
  readonly workerMetrics?: WorkerMetricsPort;
}

export type WalRelayState = 'stopped' | 'connecting' | 'streaming' | 'standby';

/** One replication connection's state: `over` once it ended or a batch of it failed. */
interface Connection {
  stream: WalStream;
  over: boolean;
  end(err: Error | undefined): void;
}

type Item =
  | { readonly kind: 'event'; readonly event: WalEvent; readonly commitTimeMs: number }
  | { readonly kind: 'mark'; readonly lsn: bigint };

/** How often the relay tells the server its position even when nothing moves (wal_sender_timeout). */
const STATUS_INTERVAL_MS = 10_000;

/**
 * Publishes the outbox's logical decoding messages (OUTBOX_TRANSPORT=wal, ADR 0023) from one
 * replication slot, in commit order, and confirms a position to the slot only once every event
 * before it is acknowledged by Kafka or parked in the `outbox` table: at-least-once across a crash
 * of the relay, a restart of PostgreSQL or an outage of Kafka (the stream restarts from the
 * confirmed position; the events after it are sent again, in their order).
 *
 * A key with an unpublished row in the table (dead, retrying, or left by the table transport)
 * gets its later events parked behind that row, as pending, for the table relay; an event whose
 * send fails is parked with the attempt counted. So a dead event blocks only its key, and the
 * dead-letter list and replay are the table's.
 *
 * PostgreSQL lets one process stream a slot: another instance's relay is refused (55006) and
 * stands by, trying again every OUTBOX_WAL_STANDBY_RETRY_MS.
 */
export class WalRelay {
  private readonly repo: OutboxRepository;
  private readonly wal = new WalOutboxRepository();
  private readonly metrics: OutboxMetrics;
  private readonly publisher: OutboxPublisher;
  private readonly log: AppLogger;
  /** Runs one replication connection per step, and backs off after one that failed. */
  private readonly poller: Poller;
  private standbyLogged = false;
  private streamEnded: ((err: Error | undefined) => void) | undefined;
  private queue: Item[] = [];
  private queuedEvents = 0;
  private processing: Promise<void> | undefined;
  private confirmed = 0n;
  private statusTimer: NodeJS.Timeout | undefined;
  private _state: WalRelayState = 'stopped';

  constructor(private readonly deps: WalRelayDeps) {
    this.repo = deps.repository ?? new OutboxRepository();
    this.metrics = deps.metrics ?? noopOutboxMetrics;
    this.log = deps.logger.child({ component: 'wal-relay' });
    this.publisher = new OutboxPublisher({
      kafka: deps.kafka,
      topicPrefix: deps.topicPrefix,
      logger: deps.logger,
      maxMessageBytes: deps.settings.maxMessageBytes,
      sendTimeoutMs: deps.settings.sendTimeoutMs,
    });
    this.poller = new Poller({
      name: 'wal_relay',
      logger: this.log,
      metrics: deps.workerMetrics,
      step: () => this.connection(),
      pollMs: deps.settings.standbyRetryMs,
      backoff: { firstMs: 200, maxMs: 5_000 },
      failureMessage: 'WAL relay stream ended; restarting from the confirmed position',
    });
  }

  get state(): WalRelayState {
    return this._state;
  }

  /** The last position this relay confirmed to the slot (for tests and logs). */
  get confirmedLsn(): string {
    return bigIntToLsn(this.confirmed);
  }

  async start(): Promise<void> {
    if (this.poller.running) return;
    await this.publisher
      .connect()
      .catch((e: unknown) => this.log.warn({ err: e }, 'Kafka not reachable yet'));
    this.poller.start();
    this.log.info({ slot: this.deps.settings.slot }, 'WAL relay started');
  }

  /** Ends the stream after the batch in flight (its position is confirmed); the rest is sent again later. */
  async stop(): Promise<void> {
    const wasRunning = this.poller.running;
    const stopped = this.poller.stop();
    this.streamEnded?.(undefined);
    await stopped;
    this._state = 'stopped';
    await this.publisher.disconnect();
    if (wasRunning) this.log.info('WAL relay stopped');
  }

  /**
   * Waits until the slot is confirmed up to where the WAL was flushed when called (shutdown: the
   * events of the outcomes just recorded), or until `untilMs`. A standby has nothing to flush.
   */
  async flush(untilMs: number): Promise<void> {
    if (this._state !== 'streaming') return;
    const target = lsnToBigInt(await this.wal.currentLsn(this.deps.pool));
    while (Date.now() < untilMs && this._state === 'streaming' && this.confirmed < target) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * One step of the poller: a replication connection until it ends. Ended by stop() or the server:
   * connect again at once; refused because another process streams the slot (55006): stand by;
   * ended by an error: thrown, so the poller backs off.
   */
  private async connection(): Promise<PollOutcome> {
    this._state = 'connecting';
    let ended: Error | undefined;
    try {
      ended = await this.streamOnce();
    } catch (e) {
      ended = e instanceof Error ? e : new Error(String(e));
    }
    if (this.state === 'streaming') this.standbyLogged = false;
    if (ended === undefined) return 'busy';
    if ((ended as { code?: string }).code === '55006') {
      // Another process streams the slot: stand by.
      this._state = 'standby';
      if (!this.standbyLogged)
        this.log.info({ slot: this.deps.settings.slot }, 'slot streamed elsewhere: standing by');
      this.standbyLogged = true;
      return { waitMs: this.deps.settings.standbyRetryMs };
    }
    throw ended;
  }

  /**
   * One replication connection, from start to end. Resolves with the reason it ended. Its queue,
   * batches and confirmations belong to it alone (`conn`): once it has ended, or a batch of it
   * failed, nothing more of it is sent or confirmed. What it delivered after its last confirmed
   * position comes again on the next connection, in order; a later event of a key sent after an
   * earlier one had failed would be published before it.
   */
  private async streamOnce(): Promise<Error | undefined> {
    const { settings } = this.deps;
    this.queue = [];
    this.queuedEvents = 0;
    let resolveEnded!: (err: Error | undefined) => void;
    const ended = new Promise<Error | undefined>((r) => (resolveEnded = r));
    const conn: Connection = {
      stream: undefined as unknown as WalStream,
      over: false,
      end: (err) => {
        conn.over = true;
        this.queue = [];
        this.queuedEvents = 0;
        resolveEnded(err);
      },
    };
    this.streamEnded = (err) => conn.end(err);
    const stream = new WalStream(this.deps.databaseUrl, settings.slot, WAL_PUBLICATION, {
      onEvent: (event, commitTimeMs) => {
        if (conn.over) return;
        this.queue.push({ kind: 'event', event, commitTimeMs });
        this.queuedEvents++;
        // A batch's worth of a transaction not yet committed is sent already (and confirmed with
        // its commit): a transaction larger than the queue must not wait for its end.
        if (this.queuedEvents >= settings.batchSize) this.schedule(conn);
        // Backpressure: two batches queued are enough; the server waits for us.
        if (this.queuedEvents >= 2 * settings.batchSize) stream.pause();
      },
      onCommit: (lsn) => {
        if (conn.over) return;
        this.queue.push({ kind: 'mark', lsn });
        this.schedule(conn);
      },
      onKeepalive: (lsn, replyNow) => {
        if (conn.over) return;
        // Everything before it has been received: once that is handled, the slot may move here.
        this.queue.push({ kind: 'mark', lsn });
        if (replyNow && this.confirmed > 0n) stream.acknowledge(this.confirmed);
        this.schedule(conn);
      },
      onEnd: (err) => conn.end(err),
    });
    conn.stream = stream;
    try {
      const slot = await this.wal.slot(this.deps.pool, settings.slot);
      if (!slot) {
        // Dropped while in use (boot creates it): what was written in between is not in the new one.
        await this.wal.createSlot(this.deps.pool, settings.slot);
        this.log.error(
          { slot: settings.slot },
          'the outbox slot was missing and has been created again: events committed while it was missing are not in it (ADR 0023)',
        );
      }
      // Never report a position below the slot's own.
      this.confirmed = lsnToBigInt(slot?.confirmedFlushLsn ?? '0/0');
      await stream.start();
      this._state = 'streaming';
      // Connected: a failure after this is a new streak, backed off from the start.
      this.poller.progressed();
      this.log.info({ slot: settings.slot }, 'streaming the outbox slot');
      this.statusTimer = setInterval(() => {
        if (this.confirmed > 0n) stream.acknowledge(this.confirmed);
      }, STATUS_INTERVAL_MS);
      this.statusTimer.unref();
      return await ended;
    } finally {
      conn.over = true;
      clearInterval(this.statusTimer);
      this.streamEnded = undefined;
      // A batch in flight finishes (a stop confirms it) before the connection closes.
      while (this.processing) await this.processing;
      await stream.stop();
    }
  }

  private schedule(conn: Connection): void {
    if (this.processing || conn.over) return;
    // setImmediate: what the socket delivered in one read is queued first, and sent as one batch.
    this.processing = new Promise<void>((r) => setImmediate(r))
      .then(() => this.drain(conn))
      .catch((e: unknown) => conn.end(e instanceof Error ? e : new Error(String(e))))
      .finally(() => {
        this.processing = undefined;
        // An item queued after drain() looked for the last time must not wait for the next one.
        if (this.queue.length > 0) this.schedule(conn);
      });
  }

  /** Handles queued items batch by batch until the queue is empty, confirming after each. */
  private async drain(conn: Connection): Promise<void> {
    const { stream } = conn;
    while (this.queue.length > 0 && !conn.over) {
      const events: Array<{ event: WalEvent; commitTimeMs: number }> = [];
      let mark: bigint | undefined;
      let taken = 0;
      for (const item of this.queue) {
        if (item.kind === 'event') {
          if (events.length >= this.deps.settings.batchSize) break;
          events.push(item);
        } else mark = item.lsn;
        taken++;
      }
      this.queue = this.queue.slice(taken);
      this.queuedEvents -= events.length;
      if (events.length > 0) await this.publish(events);
      // A stop lets the batch in flight be confirmed; an end by failure or by the server does not
      // matter here (the connection is gone, and the next one starts from the slot's position).
      if (mark !== undefined && mark > this.confirmed && !stream.isEnded) {
        this.confirmed = mark;
        stream.acknowledge(mark);
      }
      if (this.queuedEvents < this.deps.settings.batchSize) stream.resume();
    }
  }

  /**
   * Sends a batch, or parks in the table what may not or could not be sent. Throws when Kafka is
   * away (nothing is confirmed; the stream restarts and sends the batch again).
   */
  private async publish(batch: ReadonlyArray<{ event: WalEvent; commitTimeMs: number }>): Promise<void> {
    const { settings } = this.deps;
    const blocked = await this.repo.keysWithUnpublished(this.deps.pool, [
      ...new Set(batch.map((b) => b.event.messageKey)),
    ]);
    const rows: OutboxRow[] = [];
    for (const b of batch) if (!blocked.has(b.event.messageKey)) rows.push(toRow(b.event));
    const outcome = await this.publisher.publish(rows);
    const failed = new Map(outcome.failed.map((f) => [f.id, f.error]));
    const sentIds = new Set(outcome.sent.map((r) => r.id));
    const parked: ParkedEvent[] = [];
    for (const b of batch) {
      if (sentIds.has(b.event.lsn)) continue;
      const error = failed.get(b.event.lsn);
      parked.push({ ...b.event, ...(error === undefined ? {} : { error }) });
    }
    const now = Date.now();
    this.metrics.published(
      batch.filter((b) => sentIds.has(b.event.lsn)).map((b) => (now - b.commitTimeMs) / 1000),
    );
    if (parked.length === 0) return;
    const { dead } = await this.repo.park(this.deps.pool, parked, settings);
    if (failed.size > 0) {
      this.metrics.failed(failed.size - dead.length, dead.length);
      this.log.warn(
        { failed: failed.size, dead: dead.length, firstError: outcome.failed[0]?.error },
        'events failed to publish; parked in the outbox table',
      );
    }
    this.deps.onParked?.();
  }
}

function toRow(e: WalEvent): OutboxRow {
  return {
    id: e.lsn,
    messageKey: e.messageKey,
    eventId: e.eventId,
    eventType: e.eventType,
    topic: e.topic,
    payload: e.payload,
    headers: e.headers,
    attempts: 0,
  };
}
