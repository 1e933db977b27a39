import type pg from 'pg';
import { type BatchStatus } from '#contracts';
import { inTransaction } from '#database';
import { type AppLogger } from '#observability';
import { type BatchRepository } from './batch.repository.js';
import { batchItemEvent, batchStateEvent } from './events.js';
import {
  CAUSE_OF_SOURCE,
  type HistoryCause,
  type HistoryEntry,
  type HistoryRepository,
} from './history.repository.js';
import { type BatchItemRow, type BatchRow, type BatchTotals } from './ledger.types.js';
import { type ChangeSource, type LedgerOutbox, type StaleCounter } from './ledger.ports.js';
import { assertBatchMove } from './state-machine.js';

/** What a batch's move writes besides its status. */
export interface BatchChangeFields {
  referenceId?: string | null;
  statusCode?: string | null;
  reason?: string | null;
  nextCheckAt?: Date | null;
  /** The totals the new version's event carries (none: the entry count only). */
  totals?: BatchTotals | null;
}

/** One state change of a batch, from the version its caller saw. */
export interface BatchChange {
  readonly batch: BatchRow;
  readonly to: BatchStatus;
  readonly fields?: BatchChangeFields;
  /** Extra fields of the state-change line (ids, codes and totals only). */
  readonly log?: Readonly<Record<string, unknown>>;
  /** The history's cause when the source alone does not say it (the batch submitter: executor). */
  readonly cause?: HistoryCause;
}

export interface BatchLedgerDeps {
  readonly pool: pg.Pool;
  readonly batches: BatchRepository;
  readonly outbox: LedgerOutbox;
  readonly history: HistoryRepository;
  readonly logger: AppLogger;
  readonly stale?: StaleCounter;
}

/**
 * The one way a batch changes state, as PayoutLedger is for a payout: the legal move from the
 * version the caller saw and its event in one transaction; after the commit, the state-change
 * line (an error line for REQUIRES_ATTENTION). Entry events are the caller's: they are written
 * in the same transaction, before the batch's own event (`applyWithin`).
 */
export class BatchLedger {
  private readonly log: AppLogger;

  constructor(private readonly d: BatchLedgerDeps) {
    this.log = d.logger.child({ component: 'batches' });
  }

  /** One change in its own transaction: the new row, or undefined when the batch had moved on. */
  async change(change: BatchChange, source: ChangeSource): Promise<BatchRow | undefined> {
    const moved = await inTransaction(this.d.pool, (c) => this.applyWithin(c, change, source));
    this.announce(change, moved, source);
    return moved;
  }

  /** A new batch (intake), in the caller's transaction: its first history row. */
  async admitted(c: pg.PoolClient, batch: BatchRow): Promise<void> {
    await this.d.history.record(c, [batchHistory(null, batch, 'intake')]);
  }

  /**
   * The change, its event and its history row in the caller's transaction; the caller announces
   * it once committed.
   */
  async applyWithin(
    c: pg.PoolClient,
    change: BatchChange,
    source: ChangeSource,
  ): Promise<BatchRow | undefined> {
    const { batch, to } = change;
    assertBatchMove(batch.status, to, batch.batchTransferId);
    const moved = await this.d.batches.transition(c, batch.id, batch.version, to, change.fields ?? {});
    if (moved) {
      await this.d.outbox.enqueue(c, [batchStateEvent(moved)]);
      await this.d.history.record(c, [
        batchHistory(batch.status, moved, change.cause ?? CAUSE_OF_SOURCE[source]),
      ]);
    }
    return moved;
  }

  /**
   * The provider's per-entry results, in the caller's transaction (which holds the batch's lock):
   * the entries that moved (BatchRepository.updateItems: forwards only), their events (before the
   * batch's own) and their history rows. Returns the entries that moved.
   */
  async applyEntriesWithin(
    c: pg.PoolClient,
    batch: BatchRow,
    updates: Parameters<BatchRepository['updateItems']>[2],
    before: ReadonlyMap<string, string>,
    source: ChangeSource,
  ): Promise<BatchItemRow[]> {
    const changed = await this.d.batches.updateItems(c, batch.id, updates);
    if (changed.length === 0) return changed;
    await this.d.outbox.enqueue(
      c,
      changed.map((i) => batchItemEvent(batch, i)),
    );
    const cause = CAUSE_OF_SOURCE[source];
    await this.d.history.record(
      c,
      changed.map((i) => ({
        subject: 'batch_entry' as const,
        subjectId: batch.id,
        accountId: batch.accountId,
        transferId: i.transferId,
        from: before.get(i.transferId) ?? null,
        to: i.status,
        version: i.version,
        cause,
        reason: i.reason,
        referenceId: i.referenceId,
        utr: i.utr,
      })),
    );
    return changed;
  }

  /** RECEIVED to SUBMITTING for up to `limit` batches no other worker holds, with a lease. */
  async claimForSubmission(owner: string, leaseMs: number, limit: number): Promise<BatchRow[]> {
    assertBatchMove('RECEIVED', 'SUBMITTING', 'a claim');
    const claimed = await inTransaction(this.d.pool, async (c) => {
      const rows = await this.d.batches.claimForSubmission(c, owner, leaseMs, limit);
      await this.d.outbox.enqueue(
        c,
        rows.map((r) => batchStateEvent(r)),
      );
      await this.d.history.record(
        c,
        rows.map((r) => batchHistory('RECEIVED', r, 'executor')),
      );
      return rows;
    });
    for (const b of claimed) this.line({ batch: { ...b, status: 'RECEIVED' }, to: b.status }, b);
    return claimed;
  }

  /** A re-send of the same batchTransferId: back to SUBMITTING with a new attempt and lease. */
  async resend(
    batch: BatchRow,
    owner: string,
    leaseMs: number,
    source: ChangeSource,
  ): Promise<BatchRow | undefined> {
    assertBatchMove(batch.status, 'SUBMITTING', batch.batchTransferId);
    const moved = await inTransaction(this.d.pool, async (c) => {
      const next = await this.d.batches.markResent(c, batch.id, batch.version, owner, leaseMs);
      if (next) {
        await this.d.outbox.enqueue(c, [batchStateEvent(next)]);
        await this.d.history.record(c, [batchHistory(batch.status, next, CAUSE_OF_SOURCE[source])]);
      }
      return next;
    });
    this.announce({ batch, to: 'SUBMITTING' }, moved, source);
    return moved;
  }

  /** After the commit: the state-change line, or a stale count for a batch that had moved on. */
  announce(change: BatchChange, moved: BatchRow | undefined, source: ChangeSource): void {
    if (moved) return this.line(change, moved);
    this.d.stale?.(source);
    this.log.warn(
      { batchTransferId: change.batch.batchTransferId, from: change.batch.status, to: change.to },
      'batch moved on meanwhile; this change was dropped',
    );
  }

  private line(change: BatchChange, b: BatchRow): void {
    const from = change.batch;
    const fields = {
      transferId: b.batchTransferId,
      batchTransferId: b.batchTransferId,
      requestId: b.requestId,
      kind: 'batch_transfer',
      from: from.status,
      to: b.status,
      version: b.version,
      reason: b.reason,
    };
    if (b.status === 'REQUIRES_ATTENTION') {
      this.log.error(
        { ...fields, checks: from.checkCount, ...change.log },
        'batch requires attention: its true state could not be established automatically',
      );
    } else {
      this.log.info({ ...fields, ...change.log }, 'batch state changed');
    }
  }
}

function batchHistory(from: BatchStatus | null, b: BatchRow, cause: HistoryCause): HistoryEntry {
  return {
    subject: 'batch',
    subjectId: b.id,
    accountId: b.accountId,
    transferId: b.batchTransferId,
    from,
    to: b.status,
    version: b.version,
    cause,
    reason: b.reason,
    statusCode: b.statusCode,
    referenceId: b.referenceId,
  };
}
