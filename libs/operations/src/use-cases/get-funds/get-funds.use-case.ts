import { type AccountFunds } from '#pipeline';
import { type OperationsPorts } from '../operations.ports.js';

/** One account's funds as the operations API answers them (times as ISO strings). */
export interface AccountFundsView extends Omit<AccountFunds, 'balance' | 'heldForFunds' | 'hold'> {
  readonly heldForFunds: {
    readonly count: number;
    readonly amount: string;
    readonly oldestSince: string | null;
  };
  /** Holding for funds of the account (FUNDS_HOLD); null while it is off. */
  readonly hold: { readonly threshold: string; readonly fee: string; readonly maxHoldSeconds: number } | null;
  readonly balance: { readonly available: string; readonly readAt: string } | null;
}

/**
 * What each account has committed (issue 32): in flight, waiting to be sent (held for funds
 * among it, ADR 0027), and the provider's available balance as last read (null while none is known).
 */
export class GetFunds {
  constructor(private readonly d: Pick<OperationsPorts, 'funds'>) {}

  async execute(): Promise<{ accounts: AccountFundsView[]; at: string }> {
    const at = new Date().toISOString();
    const accounts = (await this.d.funds?.read()) ?? [];
    return {
      accounts: accounts.map((a) => ({
        ...a,
        heldForFunds: {
          count: a.heldForFunds.count,
          amount: a.heldForFunds.amount,
          oldestSince: a.heldForFunds.oldestSince?.toISOString() ?? null,
        },
        hold: a.hold
          ? { threshold: a.hold.threshold, fee: a.hold.fee, maxHoldSeconds: a.hold.maxHoldMs / 1000 }
          : null,
        balance: a.balance
          ? { available: a.balance.available, readAt: a.balance.readAt.toISOString() }
          : null,
      })),
      at,
    };
  }
}
