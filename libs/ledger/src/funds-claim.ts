/*
 * The funds-aware claim (issue 32 item 3, "hold instead of bounce"; ADR 0027): for one account in
 * FUNDS_HOLD, in one transaction under the account's advisory lock, the ledger reads the facts
 * (the latest balance reading, what was sent that it may not include, the first waiting payouts or
 * batches), the caller's rule (the pipeline's decideFundsHold) gives a verdict per candidate, and the ledger
 * applies them through its moves: send (to SUBMITTING, as the claim does, with `sent_at`), hold (to
 * HELD_FOR_FUNDS, once) or reject (REJECTED, never sent). The rule stays in the pipeline: the ledger
 * only reads, asks and moves.
 */

/** One waiting payout (or a whole batch: its total) of the account, oldest first. */
export interface FundsClaimCandidate {
  readonly id: string;
  /** In paise: a payout's amount, a batch's total. */
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
}

/** What a round did. */
export interface FundsClaimResult<R> {
  /** False: another round (this or another instance) holds the account; nothing was read or written. */
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
  /** The account's lock for the transaction (false: another round holds it). */
  readonly lock: () => Promise<boolean>;
  /**
   * The facts and the first `limit` waiting of each status, oldest first; `how`: the committed sum
   * bounded from the reading's row (null facts: the reading has no bound), or exact.
   */
  readonly read: (
    limit: number,
    how: 'bound' | 'exact',
  ) => Promise<{ facts: FundsClaimFacts | null; candidates: C[] }>;
  readonly idOf: (c: C) => string;
  readonly statusOf: (c: C) => string;
  readonly amountOf: (c: C) => bigint;
  readonly heldSinceOf: (c: C) => Date | null;
}

/**
 * The round's reads and plan, the same for payouts and batches: the lock; then the bound first
 * (the committed sum bounded from the reading's row, never less than the exact one: ledger
 * migration 1764693000000), which decides the round when every candidate it looked at fits (what
 * fits under a sum that is too large fits under the exact one: sending it is safe, and nothing was
 * skipped); otherwise the exact sum (every payout taken since the reading), which the rule needs
 * to hold, skip or reject fairly. With each: a narrow read first (the free slots and a margin),
 * from which an account with room fills its slots; the whole window only when room ran short
 * within the part surely the oldest waiting (fundsHead) and more may wait beyond. `locked` false:
 * nothing read; `plan` null: nothing waits.
 */
export async function planFundsRound<C>(
  round: FundsClaimRound,
  src: FundsRoundSource<C>,
): Promise<{ locked: boolean; plan: FundsMovePlan<C> | null }> {
  if (!(await src.lock())) return { locked: false, plan: null };
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
    if (head.length === 0) return { locked: true, plan: null };
    const p = planOf(head, bound.facts);
    if (!fundsShort(p) && (p.slotBound || !more)) return { locked: true, plan: p };
  }

  let { facts, candidates } = await src.read(first, 'exact');
  if (!facts) throw new Error('the exact funds read gave no facts');
  if (narrow < round.window) {
    const { head, more } = headOf(candidates);
    if (head.length === 0) return { locked: true, plan: null };
    const p = planOf(head, facts);
    if (p.slotBound || !more) return { locked: true, plan: p };
    ({ facts, candidates } = await src.read(round.window, 'exact'));
    if (!facts) throw new Error('the exact funds read gave no facts');
  }
  return { locked: true, plan: candidates.length === 0 ? null : planOf(candidates, facts) };
}
