import type pg from 'pg';
import { type PayoutStatus } from '#contracts';
import { type AppLogger, NOOP_TRACING, type Tracing } from '#observability';
import { payoutStateEvent } from './events.js';
import {
  type ContradictionRepository,
  type ContradictionRow,
  type ContradictionSource,
} from './contradiction.repository.js';
import { type ContradictionReport, recordPayoutContradiction } from './contradictions.js';
import { CAUSE_OF_SOURCE, type HistoryRepository, type OperatorActor } from './history.repository.js';
import { payoutHistoryOf } from './history-rows.js';
import {
  type NewPayout,
  type OutcomeFields,
  type PayoutRow,
  type ReversalWatchSettings,
} from './ledger.types.js';
import {
  type AttentionCounter,
  type ContradictionCounter,
  type LedgerOutbox,
  type ChangeSource,
  type PaidCounter,
  type StaleCounter,
} from './ledger.ports.js';
import { announcerOf, type LedgerTransaction, runLedgerTransaction } from './ledger-transaction.js';
import { type FundsCandidateRow, PayoutMoves } from './payout-moves.repository.js';
import {
  afterSend,
  type FundsClaimResult,
  type FundsClaimRound,
  FundsSeen,
  fundsShort,
  sendFundsRound,
} from './funds-claim.js';
import { assertPayoutMove, isTerminal } from './state-machine.js';
import { fromPaise, toPaise } from './money.js';

export type { ContradictionReport } from './contradictions.js';

/** One state change of a payout, from the version its caller saw. */
export interface PayoutChange {
  /** The row as the caller read it: the move applies only while the row is still at this version. */
  readonly row: PayoutRow;
  readonly to: PayoutStatus;
  readonly fields?: OutcomeFields;
  /** Extra fields of the state-change line (ids and codes only, never request content). */
  readonly log?: Readonly<Record<string, unknown>>;
  /** The person behind a change of source `operations` (required there): written to the history. */
  readonly actor?: OperatorActor;
}

/** A change that knows only what the move needs of the row (PayoutChange is one). */
interface MoveChange extends Omit<PayoutChange, 'row'> {
  readonly row: Pick<PayoutRow, 'id' | 'version' | 'status' | 'transferId' | 'checkCount'>;
}

export interface PayoutLedgerDeps {
  readonly pool: pg.Pool;
  /**
   * The reversal watch the moves apply (a SUCCESS of a watched kind gets its first reversal check);
   * none: no watch.
   */
  readonly reversalWatch?: ReversalWatchSettings;
  readonly outbox: LedgerOutbox;
  /** The durable history: one row per change, in the change's transaction. */
  readonly history: HistoryRepository;
  readonly logger: AppLogger;
  /** Counts a change dropped because the row had moved on meanwhile. */
  readonly stale?: StaleCounter;
  /** Counts a payout entering REQUIRES_ATTENTION, by reason. */
  readonly attention?: AttentionCounter;
  /**
   * Whether entering SUBMITTING writes an event (default true). Off, a payout has one event fewer
   * (EVENTS_SUBMITTING=skip): the row's version still moves, so its versions on the topic skip one.
   */
  readonly publishSubmitting?: boolean;
  /**
   * Whether a new payout's RECEIVED state (its command is recorded) writes an event (default true).
   * Off (EVENTS_ACCEPTED=skip), with publishSubmitting off too, a payout that settles at once has
   * one event: its outcome. Its first version on the topic is then not 1.
   */
  readonly publishAccepted?: boolean;
  /** A span per ledger transaction, in the trace of the payouts it changes (ADR 0015). */
  readonly tracing?: Tracing;
  /** Where contradictions are recorded (ADR 0018); without it `contradict` refuses. */
  readonly contradictions?: ContradictionRepository;
  /** Counts a contradiction recorded for the first time (payouts_contradictions_total). */
  readonly contradicted?: ContradictionCounter;
  /** Counts the amount of a payout entering SUCCESS (payouts_paid_amount_paise_total). */
  readonly paid?: PaidCounter;
}

/**
 * The one way a payout changes state: in one transaction, the move (legal per the state machine,
 * from the version the caller saw), its event in the outbox and its history row; after the commit, the state-change
 * line, or the count of a stale result when the row had moved on. Secrets are erased on entering
 * a terminal state. An illegal move throws IllegalTransitionError and changes nothing.
 *
 * The statements that move a payout (PayoutMoves) are the ledger's alone: it builds them, and
 * nothing outside libs/ledger can import them (ADR 0003, amendment). A caller that writes rows of
 * its own in the same transaction opens it here (`transaction`) and passes it to the steps
 * (`admit`, `apply`), whose announcements then run after the commit, by construction.
 */
export class PayoutLedger {
  private readonly loggers = new Map<ChangeSource, AppLogger>();
  private readonly moves: PayoutMoves;
  /** The fast path's memory of held accounts (a hint: the reading row's guard decides). */
  private readonly fundsSeen = new FundsSeen();

  /** `moves` is for the ledger's own specs; the service's ledger builds its own. */
  constructor(
    private readonly d: PayoutLedgerDeps,
    moves?: PayoutMoves,
  ) {
    this.moves = moves ?? new PayoutMoves(d.reversalWatch);
  }

  /**
   * One transaction in which the caller's own statements (`tx.client`) and the ledger's steps
   * (`admit`, `apply`, and BatchLedger's, which take the same transaction) commit together. The
   * steps' announcements run after the commit, once, in order; after a rollback, none. `around`
   * wraps the transaction alone (the caller's span).
   */
  transaction<T>(
    work: (tx: LedgerTransaction) => Promise<T>,
    around?: (run: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    return runLedgerTransaction(this.d.pool, work, around);
  }

  /** One change in its own transaction: the new row, or undefined when the row had moved on. */
  async change(change: PayoutChange, source: ChangeSource): Promise<PayoutRow | undefined> {
    const [moved] = await this.changeMany([change], source);
    return moved;
  }

  /**
   * Many changes in ONE transaction (one UPDATE, one outbox insert, one commit). The answer is
   * aligned with `changes`. Any error (an illegal move, a refused value) fails them all.
   */
  async changeMany(
    changes: readonly PayoutChange[],
    source: ChangeSource,
  ): Promise<Array<PayoutRow | undefined>> {
    return this.transaction(
      (tx) => this.apply(tx, changes, source),
      (run) =>
        this.traced(
          'ledger transition',
          source,
          changes.map((ch) => ch.row.traceparent),
          run,
        ),
    );
  }

  /**
   * New payouts (intake), in the caller's ledger transaction: the rows, their accepted events and
   * their first history rows; after the commit, a state-change line each. Existing identities are
   * left untouched and not returned.
   */
  async admit(tx: LedgerTransaction, rows: readonly NewPayout[]): Promise<PayoutRow[]> {
    const announce = announcerOf(tx);
    // The insert writes the first history rows itself (one statement).
    const inserted = await this.moves.insertNew(tx.client, rows);
    if (inserted.length === 0) return inserted;
    if (this.d.publishAccepted !== false)
      await this.d.outbox.enqueue(
        tx.client,
        inserted.map((row) => payoutStateEvent(row)),
      );
    announce(() => {
      for (const row of inserted) this.line('intake', null, 0, undefined, row);
    });
    return inserted;
  }

  /**
   * The changes and their events in the caller's ledger transaction (intake records new commands
   * in the same one, an operator's approval its proposal); after the commit, their lines (or
   * stale counts). The answer is aligned with `changes`.
   */
  async apply(
    tx: LedgerTransaction,
    changes: readonly PayoutChange[],
    source: ChangeSource,
  ): Promise<Array<PayoutRow | undefined>> {
    return this.applyMoves(tx, changes, source);
  }

  /** `apply` of changes that know only what a move needs of the row (the funds round's). */
  private async applyMoves(
    tx: LedgerTransaction,
    changes: readonly MoveChange[],
    source: ChangeSource,
  ): Promise<Array<PayoutRow | undefined>> {
    const announce = announcerOf(tx);
    for (const ch of changes) assertPayoutMove(ch.row.status, ch.to, ch.row.transferId);
    const cause = CAUSE_OF_SOURCE[source];
    if (cause === 'operator' && changes.some((ch) => !ch.actor))
      throw new Error('an operator change needs the operator (actor)');
    const c = tx.client;
    // The moves write their history rows in the same statement (from, cause, actor).
    const rows = await this.moves.transitionMany(
      c,
      changes.map((ch) => ({
        id: ch.row.id,
        fromVersion: ch.row.version,
        fromStatus: ch.row.status,
        to: ch.to,
        fields: ch.fields ?? {},
        eraseSecrets: isTerminal(ch.to),
        ...(ch.actor ? { actor: ch.actor } : {}),
      })),
      cause,
    );
    await this.enqueue(c, rows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const moved = changes.map((ch) => byId.get(ch.row.id));
    announce(() => this.announce(changes, moved, source));
    return moved;
  }

  /**
   * RECEIVED to SUBMITTING for up to `limit` rows no other worker holds, with a lease and a new
   * attempt, committed before any provider call (a crash then leaves a SUBMITTING row to recover).
   */
  async claimForSubmission(
    owner: string,
    leaseMs: number,
    limit: number,
    /** The accounts in FUNDS_HOLD: only `claimWithFunds` sends theirs (none: today's claim). */
    exceptAccounts: readonly string[] = [],
  ): Promise<PayoutRow[]> {
    assertPayoutMove('RECEIVED', 'SUBMITTING', 'a claim');
    return this.transaction(
      async (tx) => {
        const announce = announcerOf(tx);
        // The claim writes the history rows itself (one statement).
        const rows = await this.moves.claimForSubmission(tx.client, owner, leaseMs, limit, exceptAccounts);
        await this.enqueue(tx.client, rows);
        announce(() => {
          for (const r of rows) this.line('executor', 'RECEIVED', r.checkCount, undefined, r);
        });
        return rows;
      },
      // The claimed payouts are known from the answer only: the span is made after it (parentsOf).
      (run) =>
        (this.d.tracing ?? NOOP_TRACING).inSpan(
          'ledger claim',
          {
            attributes: { 'payouts.source': 'executor' },
            parentsOf: (rows: PayoutRow[]) => rows.map((r) => r.traceparent),
          },
          run,
        ),
    );
  }

  /**
   * HELD_FOR_FUNDS to SUBMITTING for up to `limit` payouts of accounts not in `heldAccounts` (FUNDS_HOLD
   * no longer names them: they would wait for nothing), as the claim sends (ADR 0027).
   */
  async claimHeldOfUnheld(
    owner: string,
    leaseMs: number,
    limit: number,
    heldAccounts: readonly string[],
  ): Promise<PayoutRow[]> {
    assertPayoutMove('HELD_FOR_FUNDS', 'SUBMITTING', 'a claim');
    return this.transaction(async (tx) => {
      const announce = announcerOf(tx);
      const rows = await this.moves.claimHeldOfUnheld(tx.client, owner, leaseMs, limit, heldAccounts);
      await this.enqueue(tx.client, rows);
      announce(() => {
        for (const r of rows) this.line('executor', 'HELD_FOR_FUNDS', r.checkCount, { funds: 'not_held' }, r);
      });
      return rows;
    });
  }

  /**
   * The funds-aware claim of one account in FUNDS_HOLD (ADR 0027), in one transaction: the latest
   * reading, what was sent after it and the first `window` waiting payouts (RECEIVED and
   * HELD_FOR_FUNDS, oldest first) go to the caller's rule (`decide`), and its verdicts are applied
   * here, each a move of the ledger (history, event, line): send, to SUBMITTING as the claim does,
   * with `sent_at`, up to `slots` (the rest is left for the next round), only while the account's
   * reading row is as read (else the round reads again: sendFundsRound); hold, to HELD_FOR_FUNDS
   * with its reason and `held_since`, once (a held payout that stays held is not written); reject,
   * REJECTED with the rule's reason and detail (never sent: attempt 0, so no failed watch starts).
   * With the rule's room (`round.room`) and an account whose last round here found room for all it
   * looked at, the round first tries the fast path (PayoutMoves.sendWithin: one statement, no read).
   */
  async claimWithFunds(round: FundsClaimRound): Promise<FundsClaimResult<PayoutRow>> {
    assertPayoutMove('RECEIVED', 'SUBMITTING', 'a claim');
    return this.transaction(
      async (tx) => {
        const c = tx.client;
        const announce = announcerOf(tx);
        const none = { sent: [], held: 0, rejected: 0, slotBound: false, short: false };
        const sentLines = (sent: readonly PayoutRow[], from: (r: PayoutRow) => PayoutStatus) =>
          announce(() => {
            for (const r of sent) this.line('executor', from(r), r.checkCount, { funds: 'sent' }, r);
          });

        const fee = round.fee ?? 0n;
        const seen = round.room ? this.fundsSeen.get(round.accountId) : undefined;
        const room = seen && round.room ? round.room(seen.facts) : null;
        if (seen && room !== null && room >= 0n) {
          const fast = await this.moves.sendWithin(
            c,
            round.accountId,
            round.owner,
            round.leaseMs,
            round.slots,
            fromPaise(room),
            seen.guard,
            fee,
          );
          if (fast.guarded && fast.clear && (fast.fits || fast.waiting === 0)) {
            this.fundsSeen.after(round.accountId, afterSend(seen, fast.sentTotal), false, announce);
            await this.enqueue(c, fast.rows);
            sentLines(fast.rows, () => 'RECEIVED');
            return { locked: true, ...none, sent: fast.rows, slotBound: fast.waiting > round.slots };
          }
        }

        const { locked, plan, sent, after } = await sendFundsRound<FundsCandidateRow, PayoutRow>(
          round,
          {
            read: (limit, how) => this.moves.fundsRound(c, round.accountId, limit, how, fee),
            idOf: (k) => k.row.id,
            statusOf: (k) => k.row.status,
            // What it takes from the balance: its amount and the fee.
            amountOf: (k) => toPaise(k.row.amount) + fee,
            heldSinceOf: (k) => k.heldSince,
          },
          (send, guard) =>
            this.moves.sendFunded(
              c,
              round.accountId,
              round.owner,
              round.leaseMs,
              send.map((k) => k.row),
              guard,
              fee,
            ),
        );
        this.fundsSeen.after(round.accountId, after, plan !== null && fundsShort(plan), announce);
        if (!plan) return { locked, ...none };
        await this.enqueue(c, sent);
        const from = new Map(plan.send.map((k) => [k.row.id, k.row.status]));
        sentLines(sent, (r) => from.get(r.id) ?? 'RECEIVED');
        const moved = await this.applyMoves(
          tx,
          [
            ...plan.hold.map(({ candidate, reason }) => ({
              row: candidate.row,
              to: 'HELD_FOR_FUNDS' as const,
              fields: { reason },
            })),
            ...plan.reject.map(({ candidate, reason, detail }) => ({
              row: candidate.row,
              to: 'REJECTED' as const,
              fields: { reason, lastError: { reason, detail } },
              log: { detail },
            })),
          ],
          'executor',
        );
        const to = (s: PayoutStatus) => moved.filter((r) => r?.status === s).length;
        return {
          locked: true,
          sent,
          held: to('HELD_FOR_FUNDS'),
          rejected: to('REJECTED'),
          slotBound: plan.slotBound,
          short: fundsShort(plan),
        };
      },
      (run) =>
        (this.d.tracing ?? NOOP_TRACING).inSpan(
          'ledger funds claim',
          {
            attributes: { 'payouts.source': 'executor' },
            parentsOf: (r: FundsClaimResult<PayoutRow>) => r.sent.map((row) => row.traceparent),
          },
          run,
        ),
    );
  }

  /** A re-send of the same transferId: back to SUBMITTING with a new attempt (SUBMITTING or UNKNOWN only). */
  async resend(row: PayoutRow, source: ChangeSource): Promise<PayoutRow | undefined> {
    return this.special(row, 'SUBMITTING', source, undefined, (c) =>
      this.moves.markResent(c, row.id, row.version),
    );
  }

  /**
   * REQUIRES_ATTENTION back to UNKNOWN, due now with a fresh schedule: an operator's recheck
   * (`by` names the operator) or a provider webhook about the payout (`by` is 'webhook').
   */
  async reopen(
    row: PayoutRow,
    reason: string,
    by: OperatorActor | 'webhook',
  ): Promise<PayoutRow | undefined> {
    const [source, actor] =
      by === 'webhook' ? (['webhook', undefined] as const) : (['operations', by] as const);
    return this.special(row, 'UNKNOWN', source, actor, (c) =>
      this.moves.reopenForRecheck(c, row.id, row.version, reason),
    );
  }

  /**
   * A later provider signal contradicts the published terminal state of `report.row` (ADR 0018):
   * in one transaction the contradiction row (the queue's marker until a person acknowledges it),
   * its `payouts.payout.contradicted` event in the outbox and a history row. The published state
   * is not rewritten. A repeat of the same observation of the same version, or a row that has
   * moved on, writes nothing and returns undefined. A report that contradicts nothing (a legal
   * move, a non-terminal row) is a defect in the caller: it throws and writes nothing.
   */
  async contradict(
    report: ContradictionReport,
    source: ContradictionSource,
  ): Promise<ContradictionRow | undefined> {
    return recordPayoutContradiction(this.d, report, source, this.logger(source), (fn) =>
      this.traced('ledger contradiction', source, [report.row.traceparent], fn),
    );
  }

  /** After the commit: one line per change, or a stale count for a row that had moved on. */
  private announce(
    changes: readonly MoveChange[],
    moved: ReadonlyArray<PayoutRow | undefined>,
    source: ChangeSource,
  ): void {
    changes.forEach((ch, i) => {
      const next = moved[i];
      if (next) this.line(source, ch.row.status, ch.row.checkCount, ch.log, next);
      else this.stale(source, ch);
    });
  }

  private async special(
    row: PayoutRow,
    to: PayoutStatus,
    source: ChangeSource,
    actor: OperatorActor | undefined,
    write: (c: pg.PoolClient) => Promise<PayoutRow | undefined>,
  ): Promise<PayoutRow | undefined> {
    assertPayoutMove(row.status, to, row.transferId);
    return this.transaction(
      async (tx) => {
        const announce = announcerOf(tx);
        const next = await write(tx.client);
        if (next) {
          await this.enqueue(tx.client, [next]);
          await this.d.history.record(tx.client, [
            payoutHistoryOf(row.status, next, CAUSE_OF_SOURCE[source], actor),
          ]);
        }
        announce(() => this.announce([{ row, to }], [next], source));
        return next;
      },
      (run) => this.traced('ledger transition', source, [row.traceparent], run),
    );
  }

  /** A ledger transaction in a span, in the trace of the payouts it changes (one trace: its child; several: links). */
  private traced<T>(
    name: string,
    source: ChangeSource,
    parents: ReadonlyArray<string | null | undefined>,
    fn: () => Promise<T>,
  ): Promise<T> {
    const tracing = this.d.tracing ?? NOOP_TRACING;
    if (!tracing.enabled) return fn();
    return tracing.inSpan(
      name,
      { parents, attributes: { 'payouts.source': source, 'payouts.count': parents.length } },
      fn,
    );
  }

  /** The events of rows that just changed, in the caller's transaction. */
  private async enqueue(c: pg.PoolClient, rows: readonly PayoutRow[]): Promise<void> {
    const published =
      this.d.publishSubmitting === false ? rows.filter((r) => r.status !== 'SUBMITTING') : rows;
    if (published.length > 0)
      await this.d.outbox.enqueue(
        c,
        published.map((r) => payoutStateEvent(r)),
      );
  }

  private stale(source: ChangeSource, ch: MoveChange): void {
    this.d.stale?.(source);
    this.logger(source).warn(
      { transferId: ch.row.transferId, from: ch.row.status, to: ch.to, version: ch.row.version },
      'payout moved on meanwhile; this change was dropped',
    );
  }

  /** The state-change line of `next`, from `from` (null: admitted); `checks` before the move. */
  private line(
    source: ChangeSource,
    from: PayoutStatus | null,
    checks: number,
    log: MoveChange['log'],
    next: PayoutRow,
  ): void {
    const fields = {
      transferId: next.transferId,
      accountId: next.accountId,
      requestId: next.requestId,
      kind: next.kind,
      from,
      to: next.status,
      version: next.version,
      attempt: next.attempt,
      reason: next.reason,
    };
    if (next.status === 'REQUIRES_ATTENTION') {
      // An error line and a count (alerts watch it): a person must look at it.
      if (from !== 'REQUIRES_ATTENTION') this.d.attention?.(next.reason ?? 'unknown', source);
      this.logger(source).error(
        { ...fields, checks, ...log },
        'payout requires attention: its true state could not be established automatically',
      );
    } else {
      if (next.status === 'SUCCESS' && from !== 'SUCCESS')
        this.d.paid?.(next.accountId, toPaise(next.amount));
      this.logger(source).info({ ...fields, ...log }, 'payout state changed');
    }
  }

  private logger(source: ChangeSource): AppLogger {
    let l = this.loggers.get(source);
    if (!l) this.loggers.set(source, (l = this.d.logger.child({ component: source })));
    return l;
  }
}
