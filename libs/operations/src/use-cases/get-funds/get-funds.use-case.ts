import { type AccountFunds } from '#pipeline';
import { type OperationsPorts } from '../operations.ports.js';

/** One account's funds as the operations API answers them (times as ISO strings). */
export interface AccountFundsView extends Omit<AccountFunds, 'balance'> {
  readonly balance: { readonly available: string; readonly readAt: string } | null;
}

/**
 * What each account has committed (issue 32): in flight, waiting to be sent, and the provider's
 * available balance as last read (null while none is known).
 */
export class GetFunds {
  constructor(private readonly d: Pick<OperationsPorts, 'funds'>) {}

  async execute(): Promise<{ accounts: AccountFundsView[]; at: string }> {
    const at = new Date().toISOString();
    const accounts = (await this.d.funds?.read()) ?? [];
    return {
      accounts: accounts.map((a) => ({
        ...a,
        balance: a.balance
          ? { available: a.balance.available, readAt: a.balance.readAt.toISOString() }
          : null,
      })),
      at,
    };
  }
}
