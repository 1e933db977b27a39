import type pg from 'pg';
import { type BatchStatus } from '#contracts';
import { inTransaction } from '#database';
import { type AppLogger, NOOP_TRACING, type Tracing } from '#observability';
import { type BatchRepository } from './batch.repository.js';
import { batchStateEvent } from './events.js';
import { type BatchRow, type BatchTotals } from './ledger.types.js';
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
}

export interface BatchLedgerDeps {
  readonly pool: pg.Pool;
  readonly batches: BatchRepository;
  readonly outbox: LedgerOutbox;
  readonly logger: AppLogger;
  readonly stale?: StaleCounter;
  /** A span per change, in the batch's trace (ADR 0015). */
  readonly tracing?: Tracing;
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
    const moved = await (this.d.tracing ?? NOOP_TRACING).inSpan(
      'ledger batch transition',
      { parents: [change.batch.traceparent], attributes: { 'payouts.source': source } },
      () => inTransaction(this.d.pool, (c) => this.applyWithin(c, change)),
    );
    this.announce(change, moved, source);
    return moved;
  }

  /** The change and its event in the caller's transaction; the caller announces it once committed. */
  async applyWithin(c: pg.PoolClient, change: BatchChange): Promise<BatchRow | undefined> {
    const { batch, to } = change;
    assertBatchMove(batch.status, to, batch.batchTransferId);
    const moved = await this.d.batches.transition(c, batch.id, batch.version, to, change.fields ?? {});
    if (moved) await this.d.outbox.enqueue(c, [batchStateEvent(moved)]);
    return moved;
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
      if (next) await this.d.outbox.enqueue(c, [batchStateEvent(next)]);
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
