import { fromPaise } from '#ledger';

/*
 * Hold instead of bounce (issue 32, item 3): the pure rule that says, for one account and one claim
 * round, which waiting payouts (or whole batches) fit the provider's balance and are sent, which are
 * held, and which have waited past the account's maximum hold and end REJECTED (never sent). Every
 * fact is read by the caller; nothing here reads a clock or a table.
 */

/** A payout (or a whole batch: its total) that has gone to the provider, as the reading sees it. */
export interface SentFact {
  readonly amount: bigint;
  /**
   * When the ledger recorded the provider's first answer that it took the money (the first move
   * into PENDING or SUCCESS of a payout, COMPLETED of a batch: `taken_at`); null:
   * no such answer yet (SUBMITTING, UNKNOWN, or REQUIRES_ATTENTION never answered).
   */
  readonly takenAt: Date | null;
  /** The provider gave it back or never took it (FAILED, REJECTED, REVERSED). */
  readonly returned: boolean;
}

/**
 * What we have committed that the reading may not include, in paise. A reading is taken to include
 * a payout only when the provider had answered that it took it before the reading was asked; when
 * we started sending says nothing, since our call may reach the provider after a balance call asked
 * later (the rate limiter, the network). The rule, precisely, for each sent payout (batch):
 * - `returned`: never counted (the money is back, or never left).
 * - Not answered (`takenAt` null): **always** counted. In doubt, the provider may take it before or
 *   after any reading, so no reading's time can tell.
 * - Answered that it took it: counted when that answer came **after** the reading was asked
 *   (`takenAt > readAt`); a reading asked after the answer includes it (the provider had accepted
 *   it: its available balance is its ledger balance minus its pending) and it is not counted again.
 * - Nothing else is counted: payouts not sent (waiting, held, awaiting approval) are the
 *   candidates themselves, placed one by one by `decideFundsHold`.
 * Both times are on the ledger's clock: `read_at` is when the balance call was asked (before it,
 * BalanceReader), `taken_at` when the answer was recorded (after it came). So an answer that came
 * while the balance call was in the air counts: twice at worst (the reading may include it: held
 * until the next reading), never by neither side.
 */
export function unreflected(sent: readonly SentFact[], readAt: Date): bigint {
  let sum = 0n;
  for (const s of sent)
    if (!s.returned && (s.takenAt === null || s.takenAt.getTime() > readAt.getTime())) sum += s.amount;
  return sum;
}

/** One waiting payout or batch of the account, oldest first as the caller gives them. */
export interface FundsCandidate {
  readonly id: string;
  /** The payout's amount; a batch's total (a batch is held or sent whole). */
  readonly amount: bigint;
  /** Since when it has waited for funds (its first hold); undefined: not held before. */
  readonly heldSince?: Date;
}

export interface FundsFacts {
  /** The latest reading's available balance and time; null: no reading is known. */
  readonly reading: { readonly available: bigint; readonly readAt: Date } | null;
  /** `unreflected(...)` of the account at this reading. */
  readonly committed: bigint;
  /** Kept back, never spent (FUNDS_HOLD_THRESHOLD), in paise, >= 0. */
  readonly threshold: bigint;
  /** The account's maximum hold (FUNDS_MAX_HOLD_MS). */
  readonly maxHoldMs: number;
  readonly now: Date;
}

export type FundsVerdict =
  | { readonly id: string; readonly verdict: 'send' }
  | { readonly id: string; readonly verdict: 'hold'; readonly reason: FundsHoldReason }
  | {
      readonly id: string;
      readonly verdict: 'reject';
      readonly reason: typeof FUNDS_HOLD_EXPIRED;
      /** Names the maximum hold, e.g. "held for funds longer than the maximum hold of 96h". */
      readonly detail: string;
    };

/** Why a candidate waits: its amount does not fit, or no reading is known yet (read first). */
export type FundsHoldReason = 'insufficient_funds' | 'no_balance_reading';

/** The reason a payout ends with when it waited past the maximum hold (its event's `reason`). */
export const FUNDS_HOLD_EXPIRED = 'funds_hold_expired';

/**
 * Room = available − committed − threshold. The candidates are taken first in, first out; each
 * that fits (amount <= room) is sent and takes its amount from the room; one that does not fit
 * waits, and a later, smaller one that fits is still sent (skipping, so one large payout does not
 * stop the rest). A waiting one held for at least the maximum hold is rejected instead (reason
 * `funds_hold_expired`, naming the maximum). With no reading, nothing is sent blind: every
 * candidate waits (`no_balance_reading`) until the reader's first reading, and the maximum hold
 * still applies.
 */
export function decideFundsHold(candidates: readonly FundsCandidate[], f: FundsFacts): FundsVerdict[] {
  let room = fundsRoomPaise(f);
  return candidates.map((c): FundsVerdict => {
    if (room !== null && c.amount <= room) {
      room -= c.amount;
      return { id: c.id, verdict: 'send' };
    }
    if (c.heldSince !== undefined && f.now.getTime() - c.heldSince.getTime() >= f.maxHoldMs)
      return {
        id: c.id,
        verdict: 'reject',
        reason: FUNDS_HOLD_EXPIRED,
        detail: `held for funds longer than the maximum hold of ${formatMs(f.maxHoldMs)}`,
      };
    return {
      id: c.id,
      verdict: 'hold',
      reason: room === null ? 'no_balance_reading' : 'insufficient_funds',
    };
  });
}

/**
 * The room the facts leave, in paise (may be negative); null: no reading. decideFundsHold sends
 * candidates never held, taken in order, exactly while their running total is within it (the
 * ledger's fast path relies on it: FundsClaimRound.room).
 */
export function fundsRoomPaise(f: Pick<FundsFacts, 'reading' | 'committed' | 'threshold'>): bigint | null {
  return f.reading === null ? null : f.reading.available - f.committed - f.threshold;
}

/** The room a reading leaves, for logs and the console (decimal rupees; may be negative). */
export function fundsRoom(f: FundsFacts): string | null {
  const room = fundsRoomPaise(f);
  return room === null ? null : fromPaise(room);
}

function formatMs(ms: number): string {
  const h = ms / 3_600_000;
  return Number.isInteger(h) ? `${h}h` : `${ms}ms`;
}
