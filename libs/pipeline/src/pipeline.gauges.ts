import { Gauge, type Registry } from 'prom-client';
import { BATCH_STATUSES, PAYOUT_STATUSES } from '#contracts';
import { type LedgerStatusCount } from '#ledger';

/** Unclear statuses whose oldest row's age is exported, per table. */
export const UNCLEAR_STATUSES = {
  payout: ['SUBMITTING', 'PENDING', 'UNKNOWN'],
  batch: ['SUBMITTING', 'PROCESSING', 'UNKNOWN'],
} as const;

/** Counted by the settled source, not on every scrape. */
const TERMINAL_PAYOUT_STATUSES: ReadonlySet<string> = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED']);

export interface PipelineGaugeSources {
  /** The live statuses, batches and contradictions (LedgerStatsRepository.snapshot): cheap, every scrape. */
  readonly ledger: () => Promise<readonly LedgerStatusCount[]>;
  /**
   * Payouts in each terminal status (LedgerStatsRepository.settledCounts): a read of the whole
   * table, asked at most every `settledIntervalMs`. Absent: those series are not exported.
   */
  readonly settled?: () => Promise<readonly LedgerStatusCount[]>;
  /** Default 5 minutes. */
  readonly settledIntervalMs?: number;
  /** Consumer lag per topic label (ConsumerLagReader.read); absent when this instance consumes nothing. */
  readonly consumerLag?: () => Promise<ReadonlyMap<string, number>>;
  /** A source is asked at most this often; scrapes in between get the cached figures. */
  readonly minIntervalMs?: number;
}

/**
 * Reads `load` at most every `minIntervalMs`; concurrent callers share one read. When a read fails
 * the last figures are kept, so an unreachable database or broker never fails a whole scrape.
 */
export function cachedSource<T>(load: () => Promise<T>, initial: T, minIntervalMs: number): () => Promise<T> {
  let last = initial;
  let at = -Infinity;
  let current: Promise<T> | undefined;
  return () => {
    if (Date.now() - at < minIntervalMs) return Promise.resolve(last);
    current ??= load()
      .then(
        (v) => (last = v),
        () => last,
      )
      .finally(() => {
        at = Date.now();
        current = undefined;
      });
    return current;
  };
}

/**
 * Gauges computed on scrape: ledger rows by table and status, the age of the oldest unclear row,
 * and the intake consumer group's lag. Labels are table, status and logical topic names only.
 */
export class PipelineGauges {
  constructor(registry: Registry, sources: PipelineGaugeSources) {
    const every = sources.minIntervalMs ?? 5_000;
    const ledger = cachedSource(sources.ledger, [] as readonly LedgerStatusCount[], every);
    const settledSource = sources.settled;
    const settled = settledSource
      ? cachedSource(
          settledSource,
          undefined as readonly LedgerStatusCount[] | undefined,
          sources.settledIntervalMs ?? 300_000,
        )
      : undefined;
    new Gauge({
      name: 'payouts_ledger_rows',
      help: 'Ledger rows by table (payout, batch) and status; payouts in a terminal status are counted every few minutes',
      labelNames: ['kind', 'status'],
      registers: [registry],
      async collect() {
        const [snapshot, terminal] = await Promise.all([ledger(), settled?.()]);
        // Every known status is reported, 0 when there is none, so alerts and sums see the series;
        // the terminal ones once they have been counted (a first count may take seconds).
        const counts = new Map(
          [...snapshot, ...(terminal ?? [])].map((r) => [`${r.kind}/${r.status}`, r.count]),
        );
        for (const status of PAYOUT_STATUSES) {
          if (TERMINAL_PAYOUT_STATUSES.has(status) && terminal === undefined) continue;
          this.set({ kind: 'payout', status }, counts.get(`payout/${status}`) ?? 0);
        }
        for (const status of BATCH_STATUSES)
          this.set({ kind: 'batch', status }, counts.get(`batch/${status}`) ?? 0);
      },
    });
    new Gauge({
      name: 'payouts_oldest_unclear_age_seconds',
      help: "Age since creation of the oldest payout or batch still SUBMITTING, PENDING/PROCESSING or UNKNOWN (0 if none); PENDING leaves out the provider's long waits (queued, approval_pending, scheduled_next_working_day), which have their own bounds",
      labelNames: ['kind', 'status'],
      registers: [registry],
      async collect() {
        const snapshot = await ledger();
        const ages = new Map(snapshot.map((r) => [`${r.kind}/${r.status}`, r.oldestAgeSeconds]));
        for (const [kind, statuses] of Object.entries(UNCLEAR_STATUSES))
          for (const status of statuses) this.set({ kind, status }, ages.get(`${kind}/${status}`) ?? 0);
      },
    });
    new Gauge({
      name: 'payouts_contradictions_open',
      help: 'Contradictions of a published terminal state no person has acknowledged yet (ADR 0018)',
      registers: [registry],
      async collect() {
        const open = (await ledger()).find((r) => r.kind === 'contradiction' && r.status === 'open');
        this.set(open?.count ?? 0);
      },
    });
    // Approval before sending (issue 30): the alert PayoutApprovalWaitingTooLong watches the age.
    const waiting = async () => (await ledger()).find((r) => r.kind === 'approval' && r.status === 'waiting');
    new Gauge({
      name: 'payouts_approvals_waiting',
      help: "Payouts and batches waiting for people's approval under their account's policy (AWAITING_APPROVAL)",
      registers: [registry],
      async collect() {
        this.set((await waiting())?.count ?? 0);
      },
    });
    new Gauge({
      name: 'payouts_approvals_oldest_age_seconds',
      help: 'Age of the oldest payout or batch waiting for approval (0 if none)',
      registers: [registry],
      async collect() {
        this.set((await waiting())?.oldestAgeSeconds ?? 0);
      },
    });
    if (sources.consumerLag) {
      const lag = cachedSource(
        sources.consumerLag,
        new Map<string, number>() as ReadonlyMap<string, number>,
        every,
      );
      new Gauge({
        name: 'payouts_consumer_lag_messages',
        help: "Messages on a topic not yet committed by this service's consumer group (sum over partitions)",
        labelNames: ['topic'],
        registers: [registry],
        async collect() {
          for (const [topic, n] of await lag()) this.set({ topic }, n);
        },
      });
    }
  }
}
