import { toPaise } from './money.js';

/*
 * The funds-aware claim (issue 32 item 3, "hold instead of bounce"; ADR 0027): for one account in
 * FUNDS_HOLD, in one transaction, the ledger reads the facts
 * (the latest balance reading, what was sent that it may not include, the first waiting payouts or
 * batches), the caller's rule (the pipeline's decideFundsHold) gives a verdict per candidate, and the ledger
 * applies them through its moves: send (to SUBMITTING, as the claim does, with `sent_at`), hold (to
 * HELD_FOR_FUNDS, once) or reject (REJECTED, never sent). The rule stays in the pipeline: the ledger
 * only reads, asks and moves. Its sends go only while the account's reading row is as the round read
 * it (FundsGuard): a round that lost the race to another round's send (or to a new reading) moves
 * nothing on what it read, and reads again.
 */

/**
 * The account's reading row (balance_reading) as a round read it: its sends are made only while the
 * row is unchanged, checked and locked by the send statement itself (ADR 0027, amendment of session
 * 21). Every funds-aware send adds to `sent_total` in that statement, so two rounds that read the
 * same row never both spend its room; a new reading changes `read_at`, so a round never sends on a
 * reading that is no longer the latest. Both as text, exact (numeric; microseconds with the offset).
 */
export interface FundsGuard {
  readonly sentTotal: string;
  readonly readAt: string;
}

/** One waiting payout (or a whole batch: its total) of the account, oldest first. */
export interface FundsClaimCandidate {
  readonly id: string;
  /**
   * In paise, what sending it takes from the balance: a payout's amount, a batch's total, each
   * with the round's fee per transfer (FundsClaimRound.fee: once per payout, once per entry).
   */
  readonly amount: bigint;
  /** Since when it has waited for funds (its first hold); undefined: never held. */
  readonly heldSince?: Date;
}

/** What the round knows of the account's money, read in its transaction. */
export interface FundsClaimFacts {
  /** The latest reading (available, in paise, and its time); null: no read has succeeded yet. */
  readonly reading: { readonly available: bigint; readonly readAt: Date } | null;
  /**
   * In paise: payouts and batches (their totals) of the account the reading may not include, not
   * given back or never taken (not FAILED, REJECTED, REVERSED): sent and not answered (in doubt),
   * or answered that the provider took them after the reading was asked; 0 without a reading.
   * Each with the fee per transfer (FundsClaimRound.fee) as its sends counted it.
   */
  readonly committed: bigint;
  /** The database's clock (the maximum hold is measured on it, as held_since is written by it). */
  readonly now: Date;
}

/** The rule's answer for one candidate (the pipeline's FundsVerdict fits it). */
export type FundsClaimVerdict =
  | { readonly id: string; readonly verdict: 'send' }
  | { readonly id: string; readonly verdict: 'hold'; readonly reason: string }
  | { readonly id: string; readonly verdict: 'reject'; readonly reason: string; readonly detail: string };

/**
 * The rule, given by the caller: a verdict per candidate (any order; each id once), deciding the
 * candidates in order (a verdict depends on those before it only: see fundsHead).
 */
export type FundsDecide = (
  candidates: readonly FundsClaimCandidate[],
  facts: FundsClaimFacts,
) => readonly FundsClaimVerdict[];

/** One round of one held account. */
export interface FundsClaimRound {
  readonly accountId: string;
  /** The lease_owner of what is sent. */
  readonly owner: string;
  readonly leaseMs: number;
  /** At most this many are sent (the caller's free slots); the rest wait for the next round. */
  readonly slots: number;
  /**
   * At most this many held and this many new (RECEIVED) payouts (batches) are read and decided,
   * oldest first.
   */
  readonly window: number;
  readonly decide: FundsDecide;
  /**
   * The provider's fee per transfer (service charge and tax), in paise; default 0. Counted with
   * every transfer as what it takes from the balance: each candidate's `amount` (a batch's: per
   * entry), the committed sum's payouts, what a send adds to the reading row's `sent_total`, and
   * the fast path's running total. The provider takes it besides the amount, so a payout that fits
   * by amount alone would bounce on it (FUNDS_HOLD's `fee`).
   */
  readonly fee?: bigint;
  /**
   * The rule's room under some facts, in paise (null: nothing may be sent); optional. The rule
   * must send candidates never held, taken in order, exactly while their running total is within
   * it (decideFundsHold does: fundsRoomPaise). With it, a round of an account whose last round
   * found room for everything sends its oldest new payouts within the room of the facts it
   * remembers, in one statement checked against the reading row (the fast path), without reading
   * them first; anything else (a held payout waiting, one that does not fit, a changed row) goes
   * the full way: read, decide, move.
   */
  readonly room?: FundsRoom;
}

/** The room an account's rule leaves under some facts, in paise; null: nothing may be sent. */
export type FundsRoom = (facts: FundsClaimFacts) => bigint | null;

/** What a round did. */
export interface FundsClaimResult<R> {
  /**
   * False: the account's reading row changed between each of the round's reads and its sends
   * (other rounds' sends, of this or another instance, or new readings: FUNDS_ROUND_TRIES times);
   * nothing was moved. True: the round's moves were made on the row as it read it.
   */
  readonly locked: boolean;
  /** Moved to SUBMITTING (committed): the caller sends them now. */
  readonly sent: R[];
  /** Newly HELD_FOR_FUNDS (those held before are left as they are and not counted). */
  readonly held: number;
  /** REJECTED after the maximum hold (never sent). */
  readonly rejected: number;
  /**
   * The slots ran out while more fitted: the rest was left untouched (a verdict after the first
   * unsent fit may have depended on it) and the account has work as soon as a slot frees.
   */
  readonly slotBound: boolean;
  /**
   * Room ran short: some candidate the round decided was held (newly or still) or rejected. False:
   * everything it looked at fitted (or nothing waited), so the account takes new payouts as they
   * come.
   */
  readonly short: boolean;
}

/** The moves a round's verdicts come to, in candidate order. */
export interface FundsMovePlan<C> {
  readonly send: C[];
  readonly hold: Array<{ readonly candidate: C; readonly reason: string }>;
  readonly reject: Array<{ readonly candidate: C; readonly reason: string; readonly detail: string }>;
  /** Candidates already held that stay held (no move). */
  readonly kept: number;
  readonly slotBound: boolean;
}

/** Room ran short in the plan: a candidate it decided is held (newly or still) or rejected. */
export function fundsShort(plan: FundsMovePlan<unknown>): boolean {
  return plan.hold.length > 0 || plan.reject.length > 0 || plan.kept > 0;
}

/**
 * The verdicts as moves: candidates in order, sends up to `slots`; at the first fit beyond them the
 * plan stops (what follows was decided as if it were sent, so it is left for the next round).
 * A hold of a candidate already held is no move (a held payout is moved into the state once). A
 * candidate without a verdict, or a verdict for no candidate, is a defect of the rule: it throws.
 */
export function planFundsMoves<C>(
  candidates: readonly C[],
  verdicts: readonly FundsClaimVerdict[],
  slots: number,
  idOf: (c: C) => string,
  isHeld: (c: C) => boolean,
): FundsMovePlan<C> {
  const byId = new Map(verdicts.map((v) => [v.id, v]));
  if (byId.size !== candidates.length || verdicts.length !== candidates.length)
    throw new Error('the funds rule must give exactly one verdict per candidate');
  const plan = {
    send: [] as C[],
    hold: [] as FundsMovePlan<C>['hold'],
    reject: [] as FundsMovePlan<C>['reject'],
    kept: 0,
  };
  for (const c of candidates) {
    const v = byId.get(idOf(c));
    if (!v) throw new Error('the funds rule gave no verdict for a candidate');
    if (v.verdict === 'send') {
      if (plan.send.length >= slots) return { ...plan, slotBound: true };
      plan.send.push(c);
    } else if (v.verdict === 'hold') {
      if (!isHeld(c)) plan.hold.push({ candidate: c, reason: v.reason });
      else plan.kept++;
    } else plan.reject.push({ candidate: c, reason: v.reason, detail: v.detail });
  }
  return { ...plan, slotBound: false };
}

/**
 * A round first reads a narrow window (its free slots and this many more, of each status), enough
 * to fill the slots of an account with room; only when room runs short within it (a candidate held
 * or rejected before the slots are filled) and more may lie beyond it does it read the round's
 * whole window.
 */
export const FUNDS_NARROW_MARGIN = 16;

/**
 * The part of candidates read `limit` per status (merged oldest first) that is the true head of
 * the account's waiting ones: it ends at the last row read of a status whose limit was reached
 * (after it, rows of that status beyond the read would come in between). `more`: a status reached
 * its limit, so more may wait beyond the read. The rule decides in order (a verdict depends on
 * those before it only), so its verdicts on the head are those it would give on a wider read.
 */
export function fundsHead<C>(
  candidates: readonly C[],
  limit: number,
  statusOf: (c: C) => string,
): { head: C[]; more: boolean } {
  const count = new Map<string, number>();
  const last = new Map<string, number>();
  candidates.forEach((c, i) => {
    const s = statusOf(c);
    count.set(s, (count.get(s) ?? 0) + 1);
    last.set(s, i);
  });
  let end = candidates.length;
  let more = false;
  for (const [s, n] of count)
    if (n >= limit) {
      more = true;
      end = Math.min(end, last.get(s)! + 1);
    }
  return { head: candidates.slice(0, end), more };
}

/** How one kind (payouts, batches) is read and seen by a round's plan. */
export interface FundsRoundSource<C> {
  /**
   * The facts and the first `limit` waiting of each status, oldest first, and the reading row they
   * were read from (null: no reading); `how`: the committed sum bounded from the reading's row
   * (null facts: the reading has no bound), or exact.
   */
  readonly read: (
    limit: number,
    how: 'bound' | 'exact',
  ) => Promise<{ facts: FundsClaimFacts | null; candidates: C[]; guard: FundsGuard | null }>;
  readonly idOf: (c: C) => string;
  readonly statusOf: (c: C) => string;
  readonly amountOf: (c: C) => bigint;
  readonly heldSinceOf: (c: C) => Date | null;
}

/**
 * The round's reads and plan, the same for payouts and batches: the bound first (the committed sum
 * bounded from the reading's row, never less than the exact one: ledger migration 1764693000000),
 * which decides the round when every candidate it looked at fits (what fits under a sum that is too
 * large fits under the exact one: sending it is safe, and nothing was skipped); otherwise the exact
 * sum (every payout taken since the reading), which the rule needs to hold, skip or reject fairly.
 * With each: a narrow read first (the free slots and a margin), from which an account with room
 * fills its slots; the whole window only when room ran short within the part surely the oldest
 * waiting (fundsHead) and more may wait beyond. `plan` null: nothing waits. `facts` and `guard`:
 * those of the read the plan was made on.
 */
async function planFundsRound<C>(
  round: FundsClaimRound,
  src: FundsRoundSource<C>,
): Promise<{ plan: FundsMovePlan<C> | null; facts: FundsClaimFacts | null; guard: FundsGuard | null }> {
  const planOf = (candidates: readonly C[], facts: FundsClaimFacts): FundsMovePlan<C> => {
    const verdicts = round.decide(
      candidates.map((c) => {
        const heldSince = src.heldSinceOf(c);
        return { id: src.idOf(c), amount: src.amountOf(c), ...(heldSince ? { heldSince } : {}) };
      }),
      facts,
    );
    return planFundsMoves(
      candidates,
      verdicts,
      round.slots,
      src.idOf,
      (c) => src.statusOf(c) === 'HELD_FOR_FUNDS',
    );
  };
  const narrow = round.slots + FUNDS_NARROW_MARGIN;
  const first = Math.min(narrow, round.window);
  const headOf = (candidates: C[]): { head: C[]; more: boolean } =>
    narrow < round.window ? fundsHead(candidates, narrow, src.statusOf) : { head: candidates, more: false };

  const bound = await src.read(first, 'bound');
  if (bound.facts) {
    const { head, more } = headOf(bound.candidates);
    if (head.length === 0) return { plan: null, facts: bound.facts, guard: bound.guard };
    const p = planOf(head, bound.facts);
    if (!fundsShort(p) && (p.slotBound || !more)) return { plan: p, facts: bound.facts, guard: bound.guard };
  }

  let exact = await src.read(first, 'exact');
  if (!exact.facts) throw new Error('the exact funds read gave no facts');
  if (narrow < round.window) {
    const { head, more } = headOf(exact.candidates);
    if (head.length === 0) return { plan: null, facts: exact.facts, guard: exact.guard };
    const p = planOf(head, exact.facts);
    if (p.slotBound || !more) return { plan: p, facts: exact.facts, guard: exact.guard };
    exact = await src.read(round.window, 'exact');
    if (!exact.facts) throw new Error('the exact funds read gave no facts');
  }
  return {
    plan: exact.candidates.length === 0 ? null : planOf(exact.candidates, exact.facts),
    facts: exact.facts,
    guard: exact.guard,
  };
}

/** How many times a round reads and plans again after its send found the reading row changed. */
export const FUNDS_ROUND_TRIES = 3;

/** A guarded send: `guarded` false when the reading row had changed (nothing moved). */
export interface FundsSendResult<R> {
  readonly guarded: boolean;
  readonly rows: R[];
  /** The row's `sent_total` after the send (text, exact); null when nothing was sent. */
  readonly sentTotal: string | null;
}

/**
 * A round's full way: plan (planFundsRound), then send what the plan sends under the guard of the
 * read it was made on; when the row changed meanwhile, nothing moved and the round reads and plans
 * again (its transaction reads committed: the next read sees what changed it), up to
 * FUNDS_ROUND_TRIES times. Holds and rejects are the caller's to apply, after, on the returned plan.
 * `after`: what the round knows of the row when it is done (the facts it planned on, with its own
 * sends added), for the next round's fast path; null without a reading or facts.
 */
export async function sendFundsRound<C, R>(
  round: FundsClaimRound,
  src: FundsRoundSource<C>,
  send: (candidates: readonly C[], guard: FundsGuard) => Promise<FundsSendResult<R>>,
): Promise<{
  locked: boolean;
  plan: FundsMovePlan<C> | null;
  sent: R[];
  after: FundsSeenAccount | null;
}> {
  for (let tries = 0; tries < FUNDS_ROUND_TRIES; tries++) {
    const { plan, facts, guard } = await planFundsRound(round, src);
    const seen = facts && guard ? { facts, guard } : null;
    if (!plan || plan.send.length === 0) return { locked: true, plan, sent: [], after: seen };
    if (!seen) throw new Error('a funds round planned sends without a reading');
    const r = await send(plan.send, seen.guard);
    if (r.guarded) return { locked: true, plan, sent: r.rows, after: afterSend(seen, r.sentTotal) };
  }
  return { locked: false, plan: null, sent: [], after: null };
}

/** What a round knows of an account's row after it sent (its facts, with what it sent added). */
export function afterSend(seen: FundsSeenAccount, sentTotal: string | null): FundsSeenAccount {
  if (sentTotal === null) return seen;
  const added = toPaise(sentTotal) - toPaise(seen.guard.sentTotal);
  return {
    facts: { ...seen.facts, committed: seen.facts.committed + added },
    guard: { ...seen.guard, sentTotal },
  };
}

/** The facts a round planned on and the row they were read from. */
export interface FundsSeenAccount {
  readonly facts: FundsClaimFacts;
  readonly guard: FundsGuard;
}

/**
 * What a ledger remembers of each held account after a round that found room for everything it
 * looked at: the facts it decided on (with its own sends added) and the row they were read from.
 * The next round's fast path spends the rule's room of these facts while the row is unchanged (so
 * they are still the latest reading and nothing else was sent: the committed sum can only have
 * fallen since, as answers give money back); anything else forgets the account. A hint: the row's
 * check in the send statement decides, never this map.
 */
export class FundsSeen {
  private readonly accounts = new Map<string, FundsSeenAccount>();

  get(accountId: string): FundsSeenAccount | undefined {
    return this.accounts.get(accountId);
  }

  /**
   * A round of the account ends: forgotten now; remembered again (`announce`: once its transaction
   * has committed, never when it rolls back) when it found room for all it looked at.
   */
  after(
    accountId: string,
    seen: FundsSeenAccount | null,
    short: boolean,
    announce: (after: () => void) => void,
  ): void {
    this.accounts.delete(accountId);
    if (seen && !short) announce(() => this.accounts.set(accountId, seen));
  }
}
