import { type FundsDecide, type FundsRoom } from '#ledger';

/**
 * The accounts in FUNDS_HOLD and each one's rule, as the claim loops see them (the funds folder
 * builds it: fundsHoldRule, decideFundsHold with the account's threshold and maximum hold).
 */
export interface FundsHoldPort {
  /** The held accounts (none: holding off, the claim is today's). */
  readonly accountIds: readonly string[];
  /** The account's rule; throws for an account not held. */
  decide(accountId: string): FundsDecide;
  /** The room the account's rule leaves under some facts (the ledger's fast path); throws likewise. */
  room(accountId: string): FundsRoom;
  /** The account's fee per transfer in paise (FundsClaimRound.fee); throws likewise. */
  fee(accountId: string): bigint;
}

/** The waiting payouts of a held account one round reads and decides, oldest first. */
export const FUNDS_PAYOUT_WINDOW = 500;
/** The same for batches (a batch is one candidate, up to 500 entries). */
export const FUNDS_BATCH_WINDOW = 50;
/**
 * A held account nothing woke is looked at again after the loop's idle poll, but not more often
 * than this: between readings only time (the maximum hold) and money given back change a verdict,
 * and a round reads up to a window of rows (measured: about 40 ms with 3,000 held payouts).
 */
export const HELD_LOOK_MIN_MS = 1_000;

/**
 * Which accounts in FUNDS_HOLD a claim loop (the executor, the batch submit worker) looks at in
 * its next round (ADR 0027, "Where it runs"). A held account's round is a transaction of its own
 * (reading, candidates, moves), so it is not re-run in a busy loop. An account is looked at:
 * - at once after a new reading of it (`wake`), or when its last round left sends for lack of slots;
 * - at once when intake committed new payouts of its own (`arrived`) and its last round found room
 *   for everything it looked at: an account with room is claimed as promptly as any other;
 * - after new payouts of its own while its room ran short, or after the loop's wake without the
 *   accounts (`wakeAll`: another process's intake), once its last look is an idle poll old, so a
 *   burst of intake commits costs an account that holds payouts at most one round per idle poll;
 * - otherwise once its last look is an idle poll old and at least HELD_LOOK_MIN_MS (so a maximum
 *   hold ends without a new reading, and money given back is seen);
 * and at most once per round. Each loop has its own.
 */
export class HeldAccounts {
  /** The held accounts, sorted: the claim of everything else leaves them out. */
  readonly ids: readonly string[];
  /** Due at once. */
  private readonly woken: Set<string>;
  /** Due once its last look is an idle poll old. */
  private readonly nudged = new Set<string>();
  /** Its last round ran short of room (held or rejected something). */
  private readonly short = new Set<string>();
  private readonly lastLook = new Map<string, number>();
  private readonly idlePollMs: number;
  private readonly lookEveryMs: number;

  /** `idlePollMs`: the loop's idle poll. */
  constructor(
    private readonly port: FundsHoldPort,
    idlePollMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.ids = [...port.accountIds].sort();
    this.woken = new Set(this.ids);
    this.idlePollMs = idlePollMs;
    this.lookEveryMs = Math.max(idlePollMs, HELD_LOOK_MIN_MS);
  }

  /** New payouts may be there, of any account (the loop's wake): due once an idle poll old. */
  wakeAll(): void {
    for (const id of this.ids) this.nudged.add(id);
  }

  /**
   * New payouts of these accounts were committed: a held one with room is due at once, one whose
   * room ran short once its last look is an idle poll old. Others are not this loop's concern.
   */
  arrived(accountIds: readonly string[]): void {
    for (const id of accountIds) {
      if (!this.ids.includes(id)) continue;
      if (this.short.has(id)) this.nudged.add(id);
      else this.woken.add(id);
    }
  }

  /** New work may be there for this account (a new reading); false: not a held account. */
  wake(accountId: string): boolean {
    if (!this.ids.includes(accountId)) return false;
    this.woken.add(accountId);
    return true;
  }

  /** The held accounts to look at now, in a stable order. */
  due(): string[] {
    const now = this.clock();
    return this.ids.filter((id) => {
      const age = now - (this.lastLook.get(id) ?? -Infinity);
      return this.woken.has(id) || (this.nudged.has(id) && age >= this.idlePollMs) || age >= this.lookEveryMs;
    });
  }

  /**
   * A round of the account starts (a wake from now on asks for another); after it, `looked` with
   * what it did: it left sends for lack of slots (`slotBound`), so it is due again at once; its room
   * ran short or not (`short`), which says how it answers new payouts (`arrived`).
   */
  looking(accountId: string): void {
    this.woken.delete(accountId);
    this.nudged.delete(accountId);
    this.lastLook.set(accountId, this.clock());
  }

  looked(
    accountId: string,
    r: { readonly locked: boolean; readonly slotBound: boolean; readonly short: boolean },
  ): void {
    if (r.slotBound) this.woken.add(accountId);
    // Nothing moved (the reading row kept changing under the round): what it found is not known here.
    if (!r.locked) return;
    if (r.short) this.short.add(accountId);
    else this.short.delete(accountId);
  }

  /** The account's rule (the port's). */
  decide(accountId: string): FundsDecide {
    return this.port.decide(accountId);
  }

  /** The room the account's rule leaves (the port's). */
  room(accountId: string): FundsRoom {
    return this.port.room(accountId);
  }

  /** The account's fee per transfer (the port's). */
  fee(accountId: string): bigint {
    return this.port.fee(accountId);
  }
}

/**
 * When a claim loop looks for payouts (batches) left HELD_FOR_FUNDS by accounts no longer in
 * FUNDS_HOLD (ADR 0027: holding turned off for an account; without this they would wait for
 * nothing, as the claim takes RECEIVED only): at start, then at most once per idle poll and
 * HELD_LOOK_MIN_MS (such rows come from a configuration change: at start, or from another
 * instance still holding the account), and again at once while a look fills its limit. Never per
 * claim: with holding off the claim stays today's, and a look is one statement through the held
 * rows' partial index.
 */
export class UnheldHolds {
  private next = -Infinity;
  private readonly everyMs: number;

  constructor(
    idlePollMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.everyMs = Math.max(idlePollMs, HELD_LOOK_MIN_MS);
  }

  due(): boolean {
    return this.clock() >= this.next;
  }

  /** A look found `found` of the `limit` it asked for: all of them, more may be there. */
  looked(found: number, limit: number): void {
    this.next = found >= limit ? -Infinity : this.clock() + this.everyMs;
  }
}
