import { type FundsDecide } from '#ledger';

/**
 * The accounts in FUNDS_HOLD and each one's rule, as the claim loops see them (the funds folder
 * builds it: fundsHoldRule, decideFundsHold with the account's threshold and maximum hold).
 */
export interface FundsHoldPort {
  /** The held accounts (none: holding off, the claim is today's). */
  readonly accountIds: readonly string[];
  /** The account's rule; throws for an account not held. */
  decide(accountId: string): FundsDecide;
}

/** The waiting payouts of a held account one round reads and decides, oldest first. */
export const FUNDS_PAYOUT_WINDOW = 500;
/** The same for batches (a batch is one candidate, up to 500 entries). */
export const FUNDS_BATCH_WINDOW = 50;

/**
 * Which accounts in FUNDS_HOLD a claim loop (the executor, the batch submit worker) looks at in
 * its next round (ADR 0027, "Where it runs"). A held account's round is a transaction of its own
 * (lock, reading, candidates), so it is not re-run in a busy loop: an account is looked at when it
 * was woken (new payouts, a new balance reading), when its last round left work for lack of free
 * slots, or once its last look is an idle poll old (so a maximum hold ends without a new reading),
 * and at most once per round. Each loop has its own.
 */
export class HeldAccounts {
  /** The held accounts, sorted: the claim of everything else leaves them out. */
  readonly ids: readonly string[];
  private readonly woken: Set<string>;
  private readonly lastLook = new Map<string, number>();

  constructor(
    private readonly port: FundsHoldPort,
    private readonly lookEveryMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.ids = [...port.accountIds].sort();
    this.woken = new Set(this.ids);
  }

  /** New work may be there for every held account (new payouts, a wake of the loop). */
  wakeAll(): void {
    for (const id of this.ids) this.woken.add(id);
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
    return this.ids.filter(
      (id) => this.woken.has(id) || now - (this.lastLook.get(id) ?? -Infinity) >= this.lookEveryMs,
    );
  }

  /**
   * A round of the account starts (a wake from now on asks for another); `slotBound` after it: it
   * left sends for lack of slots, so it is due again at once.
   */
  looking(accountId: string): void {
    this.woken.delete(accountId);
    this.lastLook.set(accountId, this.clock());
  }

  looked(accountId: string, slotBound: boolean): void {
    if (slotBound) this.woken.add(accountId);
  }

  /** The account's rule (the port's). */
  decide(accountId: string): FundsDecide {
    return this.port.decide(accountId);
  }
}
