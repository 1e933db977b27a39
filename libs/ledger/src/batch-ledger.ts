import type pg from 'pg';
import { type BatchStatus } from '#contracts';
import { type AppLogger, NOOP_TRACING, type Tracing } from '#observability';
import { BatchMoves, type FundsCandidateBatch } from './batch-moves.repository.js';
import { type FundsClaimResult, type FundsClaimRound, fundsShort, sendFundsRound } from './funds-claim.js';
import { batchItemEvent, batchStateEvent } from './events.js';
import {
  type ContradictionRepository,
  type ContradictionRow,
  type ContradictionSource,
} from './contradiction.repository.js';
import { type EntryContradiction, recordEntryContradictions } from './contradictions.js';
import {
  CAUSE_OF_SOURCE,
  type HistoryCause,
  type HistoryRepository,
  type OperatorActor,
} from './history.repository.js';
import { batchHistoryOf } from './history-rows.js';
import { toPaise } from './money.js';
import {
  type BatchEntryUpdate,
  type BatchItemRow,
  type BatchRow,
  type BatchTotals,
  type HeldTransferIds,
  type NewBatch,
} from './ledger.types.js';
import { announcerOf, type LedgerTransaction, runLedgerTransaction } from './ledger-transaction.js';
import {
  type ChangeSource,
  type ContradictionCounter,
  type PaidCounter,
  type LedgerOutbox,
  type StaleCounter,
} from './ledger.ports.js';
import { assertBatchMove } from './state-machine.js';

export type { EntryContradiction } from './contradictions.js';

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
  /** The person behind a change of source `operations` (an approval's): written to the history. */
  readonly actor?: OperatorActor;
}

/** A change that knows only what the move needs of the batch (BatchChange is one). */
interface BatchMoveChange extends Omit<BatchChange, 'batch'> {
  readonly batch: Pick<BatchRow, 'id' | 'version' | 'status' | 'batchTransferId' | 'checkCount'>;
}

export interface BatchLedgerDeps {
  readonly pool: pg.Pool;
  readonly outbox: LedgerOutbox;
  readonly history: HistoryRepository;
  readonly logger: AppLogger;
  readonly stale?: StaleCounter;
  /** A span per change, in the batch's trace (ADR 0015). */
  readonly tracing?: Tracing;
  /**
   * The first failed-watch check of a batch entering COMPLETED with a negative entry (ADR 0018,
   * FAILED_WATCH_SCHEDULE[0]); null or absent: no watch.
   */
  readonly failedWatchFirstMs?: number | null;
  /** Where contradictions of entries are recorded (with the payouts'); without it `contradictEntries` refuses. */
  readonly contradictions?: ContradictionRepository;
  /** Counts a contradiction recorded for the first time (payouts_contradictions_total). */
  readonly contradicted?: ContradictionCounter;
  /** Counts the amount of an entry entering SUCCESS (payouts_paid_amount_paise_total). */
  readonly paid?: PaidCounter;
}

/**
 * The one way a batch changes state, as PayoutLedger is for a payout: the legal move from the
 * version the caller saw and its event in one transaction; after the commit, the state-change
 * line (an error line for REQUIRES_ATTENTION). Entry results are applied in the same ledger
 * transaction, before the batch's own move (`applyEntries`, then `apply`), so their events come
 * first in the batch's stream. The statements (BatchMoves) are the ledger's alone (ADR 0003,
 * amendment).
 */
export class BatchLedger {
  private readonly log: AppLogger;
  private readonly moves: BatchMoves;

  /** `moves` is for the ledger's own specs; the service's ledger builds its own. */
  constructor(
    private readonly d: BatchLedgerDeps,
    moves?: BatchMoves,
  ) {
    this.log = d.logger.child({ component: 'batches' });
    this.moves = moves ?? new BatchMoves(d.failedWatchFirstMs ?? null);
  }

  /**
   * One transaction for the caller's own statements (`tx.client`) and the ledger's steps (these,
   * and PayoutLedger's); the steps' announcements run after the commit, never after a rollback.
   */
  transaction<T>(
    work: (tx: LedgerTransaction) => Promise<T>,
    around?: (run: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    return runLedgerTransaction(this.d.pool, work, around);
  }

  /** One change in its own transaction: the new row, or undefined when the batch had moved on. */
  async change(change: BatchChange, source: ChangeSource): Promise<BatchRow | undefined> {
    return this.transaction(
      (tx) => this.apply(tx, change, source),
      (run) =>
        (this.d.tracing ?? NOOP_TRACING).inSpan(
          'ledger batch transition',
          { parents: [change.batch.traceparent], attributes: { 'payouts.source': source } },
          run,
        ),
    );
  }

  /**
   * A new batch (intake), in the caller's ledger transaction: the parent row and its entries, its
   * first history row and its accepted event; after the commit, its line. Undefined (nothing
   * written) when the batch id exists. When entry ids are held already by other transfers of the
   * account (one namespace, as at the provider: issue 29), nothing is written either (a savepoint
   * undoes the parent and the ids it took; the caller's transaction goes on) and the answer names
   * them: the caller refuses the batch whole.
   */
  async admit(tx: LedgerTransaction, batch: NewBatch): Promise<BatchRow | HeldTransferIds | undefined> {
    const announce = announcerOf(tx);
    await tx.client.query('SAVEPOINT batch_admit');
    const row = await this.moves.insertNew(tx.client, batch);
    if (row !== undefined && 'held' in row) {
      await tx.client.query('ROLLBACK TO SAVEPOINT batch_admit');
      return row;
    }
    await tx.client.query('RELEASE SAVEPOINT batch_admit');
    if (!row) return undefined;
    await this.d.history.record(tx.client, [batchHistoryOf(null, row, 'intake')]);
    await this.d.outbox.enqueue(tx.client, [batchStateEvent(row)]);
    announce(() => this.line(null, undefined, row));
    return row;
  }

  /**
   * The change, its event and its history row in the caller's ledger transaction; after the
   * commit, its line (or a stale count).
   */
  async apply(
    tx: LedgerTransaction,
    change: BatchChange,
    source: ChangeSource,
  ): Promise<BatchRow | undefined> {
    return this.applyMove(tx, change, source);
  }

  /** `apply` of a change that knows only what the move needs of the batch (the funds round's). */
  private async applyMove(
    tx: LedgerTransaction,
    change: BatchMoveChange,
    source: ChangeSource,
  ): Promise<BatchRow | undefined> {
    const announce = announcerOf(tx);
    const { batch, to } = change;
    assertBatchMove(batch.status, to, batch.batchTransferId);
    const moved = await this.moves.transition(tx.client, batch.id, batch.version, to, change.fields ?? {});
    if (moved) {
      await this.d.outbox.enqueue(tx.client, [batchStateEvent(moved)]);
      await this.d.history.record(tx.client, [
        batchHistoryOf(batch.status, moved, change.cause ?? CAUSE_OF_SOURCE[source], change.actor),
      ]);
    }
    announce(() => this.announce(change, moved, source));
    return moved;
  }

  /**
   * The provider's per-entry results, in the caller's ledger transaction (which holds the batch's
   * lock): the entries that moved (forwards only, checked on the locked rows), their events
   * (before the batch's own) and their history rows; after the commit, a line each. Returns the
   * entries that moved.
   */
  async applyEntries(
    tx: LedgerTransaction,
    batch: BatchRow,
    updates: readonly BatchEntryUpdate[],
    before: ReadonlyMap<string, string>,
    source: ChangeSource,
  ): Promise<BatchItemRow[]> {
    const announce = announcerOf(tx);
    const c = tx.client;
    const changed = await this.moves.updateItems(c, batch.id, updates);
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
    announce(() => {
      for (const item of changed) {
        if (item.status === 'SUCCESS' && before.get(item.transferId) !== 'SUCCESS')
          this.d.paid?.(batch.accountId, toPaise(item.amount));
        this.log.info(
          {
            transferId: item.transferId,
            batchTransferId: batch.batchTransferId,
            requestId: batch.requestId,
            to: item.status,
            version: item.version,
            reason: item.reason,
            subState: item.subState,
          },
          'batch entry state changed',
        );
      }
    });
    return changed;
  }

  /**
   * Later provider answers that contradict the published terminal state of entries (ADR 0018,
   * issue 29), in the caller's ledger transaction (which holds the batch's lock): per entry the
   * contradiction row (the queue's marker), its `payouts.payout.contradicted` event and a history
   * row; after the commit, the count and an error line each. Never applied: the entry's state
   * stands. A repeat of an observation, or an entry that moved on, writes nothing. A report that
   * contradicts nothing is a defect in the caller: it throws.
   */
  async contradictEntries(
    tx: LedgerTransaction,
    batch: BatchRow,
    reports: readonly EntryContradiction[],
    source: ContradictionSource,
  ): Promise<ContradictionRow[]> {
    return recordEntryContradictions(this.d, this.log, tx, batch, reports, source);
  }

  /** RECEIVED to SUBMITTING for up to `limit` batches no other worker holds, with a lease. */
  async claimForSubmission(
    owner: string,
    leaseMs: number,
    limit: number,
    /** The accounts in FUNDS_HOLD: only `claimWithFunds` sends theirs (none: today's claim). */
    exceptAccounts: readonly string[] = [],
  ): Promise<BatchRow[]> {
    assertBatchMove('RECEIVED', 'SUBMITTING', 'a claim');
    return this.transaction(async (tx) => {
      const announce = announcerOf(tx);
      const rows = await this.moves.claimForSubmission(tx.client, owner, leaseMs, limit, exceptAccounts);
      await this.d.outbox.enqueue(
        tx.client,
        rows.map((r) => batchStateEvent(r)),
      );
      await this.d.history.record(
        tx.client,
        rows.map((r) => batchHistoryOf('RECEIVED', r, 'executor')),
      );
      announce(() => {
        for (const b of rows) this.line('RECEIVED', b.checkCount, b);
      });
      return rows;
    });
  }

  /**
   * HELD_FOR_FUNDS to SUBMITTING for up to `limit` batches of accounts not in `heldAccounts`
   * (FUNDS_HOLD no longer names them), as the claim sends (ADR 0027).
   */
  async claimHeldOfUnheld(
    owner: string,
    leaseMs: number,
    limit: number,
    heldAccounts: readonly string[],
  ): Promise<BatchRow[]> {
    assertBatchMove('HELD_FOR_FUNDS', 'SUBMITTING', 'a claim');
    return this.transaction(async (tx) => {
      const announce = announcerOf(tx);
      const rows = await this.moves.claimHeldOfUnheld(tx.client, owner, leaseMs, limit, heldAccounts);
      await this.d.outbox.enqueue(
        tx.client,
        rows.map((r) => batchStateEvent(r)),
      );
      await this.d.history.record(
        tx.client,
        rows.map((r) => batchHistoryOf('HELD_FOR_FUNDS', r, 'executor')),
      );
      announce(() => {
        for (const b of rows) this.line('HELD_FOR_FUNDS', b.checkCount, b, { funds: 'not_held' });
      });
      return rows;
    });
  }

  /**
   * The funds-aware claim of one account in FUNDS_HOLD (ADR 0027), as PayoutLedger's for payouts
   * (its full way; sends guarded by the same reading row: payouts and batches spend one room): the first `window`
   * waiting batches, each one candidate of its total (held or sent whole), the caller's rule, and
   * its verdicts applied as moves of the ledger (history, event, line): send to SUBMITTING (with
   * `sent_at`, up to `slots`), hold to HELD_FOR_FUNDS once, reject to REJECTED (never sent).
   */
  async claimWithFunds(round: FundsClaimRound): Promise<FundsClaimResult<BatchRow>> {
    assertBatchMove('RECEIVED', 'SUBMITTING', 'a claim');
    return this.transaction(async (tx) => {
      const c = tx.client;
      const none = { sent: [], held: 0, rejected: 0, slotBound: false, short: false };
      const fee = round.fee ?? 0n;
      const { locked, plan, sent } = await sendFundsRound<
        FundsCandidateBatch,
        { batch: BatchRow; from: BatchStatus }
      >(
        round,
        {
          read: (limit, how) => this.moves.fundsRound(c, round.accountId, limit, how, fee),
          idOf: (k) => k.batch.id,
          statusOf: (k) => k.batch.status,
          // What it takes from the balance: its total and the fee of each entry.
          amountOf: (k) => toPaise(k.batch.totalAmount) + fee * BigInt(k.batch.entryCount),
          heldSinceOf: (k) => k.heldSince,
        },
        (send, guard) =>
          this.moves.sendFunded(
            c,
            round.accountId,
            round.owner,
            round.leaseMs,
            send.map((k) => k.batch),
            guard,
            fee,
          ),
      );
      if (!plan) return { locked, ...none };
      const announce = announcerOf(tx);
      if (sent.length > 0) {
        await this.d.outbox.enqueue(
          c,
          sent.map((s) => batchStateEvent(s.batch)),
        );
        await this.d.history.record(
          c,
          sent.map((s) => batchHistoryOf(s.from, s.batch, 'executor')),
        );
      }
      announce(() => {
        for (const s of sent) this.line(s.from, s.batch.checkCount, s.batch, { funds: 'sent' });
      });
      let held = 0;
      let rejected = 0;
      for (const { candidate, reason } of plan.hold)
        if (
          await this.applyMove(
            tx,
            { batch: candidate.batch, to: 'HELD_FOR_FUNDS', fields: { reason }, cause: 'executor' },
            'batches',
          )
        )
          held++;
      for (const { candidate, reason, detail } of plan.reject)
        if (
          await this.applyMove(
            tx,
            {
              batch: candidate.batch,
              to: 'REJECTED',
              fields: { reason },
              cause: 'executor',
              log: { detail },
            },
            'batches',
          )
        )
          rejected++;
      return {
        locked: true,
        sent: sent.map((s) => s.batch),
        held,
        rejected,
        slotBound: plan.slotBound,
        short: fundsShort(plan),
      };
    });
  }

  /** A re-send of the same batchTransferId: back to SUBMITTING with a new attempt and lease. */
  async resend(
    batch: BatchRow,
    owner: string,
    leaseMs: number,
    source: ChangeSource,
  ): Promise<BatchRow | undefined> {
    assertBatchMove(batch.status, 'SUBMITTING', batch.batchTransferId);
    return this.transaction(async (tx) => {
      const announce = announcerOf(tx);
      const next = await this.moves.markResent(tx.client, batch.id, batch.version, owner, leaseMs);
      if (next) {
        await this.d.outbox.enqueue(tx.client, [batchStateEvent(next)]);
        await this.d.history.record(tx.client, [batchHistoryOf(batch.status, next, CAUSE_OF_SOURCE[source])]);
      }
      announce(() => this.announce({ batch, to: 'SUBMITTING' }, next, source));
      return next;
    });
  }

  /** After the commit: the state-change line, or a stale count for a batch that had moved on. */
  private announce(change: BatchMoveChange, moved: BatchRow | undefined, source: ChangeSource): void {
    if (moved) return this.line(change.batch.status, change.batch.checkCount, moved, change.log);
    this.d.stale?.(source);
    this.log.warn(
      { batchTransferId: change.batch.batchTransferId, from: change.batch.status, to: change.to },
      'batch moved on meanwhile; this change was dropped',
    );
  }

  /** The state-change line of `b`, from `from` (null: admitted); `checks` before the move. */
  private line(
    from: BatchStatus | null,
    checks: number | undefined,
    b: BatchRow,
    log?: BatchChange['log'],
  ): void {
    const fields = {
      transferId: b.batchTransferId,
      batchTransferId: b.batchTransferId,
      requestId: b.requestId,
      kind: 'batch_transfer',
      from,
      to: b.status,
      version: b.version,
      reason: b.reason,
    };
    if (b.status === 'REQUIRES_ATTENTION') {
      this.log.error(
        { ...fields, checks, ...log },
        'batch requires attention: its true state could not be established automatically',
      );
    } else {
      this.log.info({ ...fields, ...log }, 'batch state changed');
    }
  }
}
