import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { type OutboxStats } from './outbox.types.js';
import { type WalSlotStatus } from './wal-outbox.repository.js';

/** The WAL transport's slot, read on scrape (ADR 0023). */
export interface SlotMetricsSource {
  readonly slot: string;
  /** Whether this deployment streams the slot (OUTBOX_TRANSPORT=wal): then a missing slot is lost. */
  readonly expected: boolean;
  read(slot: string): Promise<WalSlotStatus | undefined>;
  /** 1 while this instance's relay streams the slot, 0 otherwise (standby, table transport). */
  streaming(): number;
}

/** What the relay reports. Injected, so the relay never imports prom-client itself. */
export interface OutboxMetrics {
  /** Rows acknowledged by the broker and marked published, with their created-to-published ages. */
  published(latenciesSeconds: readonly number[]): void;
  /** Failed sends: `retrying` rows backed off, `dead` rows gave up. */
  failed(retrying: number, dead: number): void;
}

export const noopOutboxMetrics: OutboxMetrics = {
  published: () => undefined,
  failed: () => undefined,
};

/**
 * prom-client implementation. The gauges are computed on scrape by `stats` (one query over the
 * unpublished rows), so every instance reports the same table-wide figures. Labels never carry ids.
 */
export class PromOutboxMetrics implements OutboxMetrics {
  private readonly latency: Histogram;
  private readonly publishedTotal: Counter;
  private readonly failures: Counter<'outcome'>;

  constructor(registry: Registry, stats: () => Promise<OutboxStats>, slot?: SlotMetricsSource) {
    this.latency = new Histogram({
      name: 'payouts_relay_publish_latency_seconds',
      help: 'Time from an outbox row being written to the broker acknowledging it',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    });
    this.publishedTotal = new Counter({
      name: 'payouts_relay_published_total',
      help: 'Outbox rows published to Kafka',
      registers: [registry],
    });
    this.failures = new Counter({
      name: 'payouts_relay_send_failures_total',
      help: 'Failed sends of outbox rows, by what happened to the row (retry or dead)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    // One query per scrape feeds all three gauges: remember its promise for the other two.
    // If the database is unreachable, report the last figures rather than failing the whole scrape.
    let current: Promise<OutboxStats> | undefined;
    let last: OutboxStats = { pending: 0, dead: 0, oldestPendingAgeSeconds: 0 };
    const read = (): Promise<OutboxStats> => {
      current ??= stats()
        .then(
          (s) => (last = s),
          () => last,
        )
        .finally(() => {
          setImmediate(() => (current = undefined));
        });
      return current;
    };
    const gauge = (name: string, help: string, pick: (s: OutboxStats) => number): void => {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(pick(await read()));
        },
      });
    };
    gauge('payouts_outbox_backlog', 'Outbox rows waiting to be published (not dead)', (s) => s.pending);
    gauge(
      'payouts_outbox_oldest_age_seconds',
      'Age of the oldest outbox row waiting to be published',
      (s) => s.oldestPendingAgeSeconds,
    );
    gauge(
      'payouts_outbox_dead_rows',
      'Outbox rows that gave up and block their key until replayed',
      (s) => s.dead,
    );
    if (slot) registerSlotGauges(registry, slot);
  }

  published(latenciesSeconds: readonly number[]): void {
    this.publishedTotal.inc(latenciesSeconds.length);
    for (const l of latenciesSeconds) this.latency.observe(l);
  }

  failed(retrying: number, dead: number): void {
    if (retrying > 0) this.failures.inc({ outcome: 'retry' }, retrying);
    if (dead > 0) this.failures.inc({ outcome: 'dead' }, dead);
  }
}

/**
 * The slot's lag (WAL bytes PostgreSQL keeps for it) and whether it is lost. Read in any mode: a
 * slot left behind after switching back to the table transport keeps WAL too, and should alert.
 */
function registerSlotGauges(registry: Registry, source: SlotMetricsSource): void {
  let current: Promise<WalSlotStatus | undefined | null> | undefined;
  const read = () => {
    // null: unreadable (the database is away); the gauges keep their last value.
    current ??= source
      .read(source.slot)
      .catch(() => null)
      .finally(() => setImmediate(() => (current = undefined)));
    return current;
  };
  new Gauge({
    name: 'payouts_outbox_slot_lag_bytes',
    help: "WAL bytes written since the outbox slot's confirmed position (what PostgreSQL retains for it); 0 without a slot",
    registers: [registry],
    async collect() {
      const s = await read();
      if (s !== null) this.set(s?.lagBytes ?? 0);
    },
  });
  new Gauge({
    name: 'payouts_outbox_slot_lost',
    help: 'The outbox slot is invalidated (its WAL passed max_slot_wal_keep_size) or, with OUTBOX_TRANSPORT=wal, missing: 1',
    registers: [registry],
    async collect() {
      const s = await read();
      if (s === null) return;
      this.set((s === undefined && source.expected) || s?.walStatus === 'lost' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'payouts_outbox_wal_streaming',
    help: 'Whether this instance streams the outbox slot (1) or not (standby, or the table transport)',
    registers: [registry],
    collect() {
      this.set(source.streaming());
    },
  });
}
