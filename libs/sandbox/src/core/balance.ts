import { debitOf } from './fees.js';
import { type Paise } from './money.js';
import { inFlight, stepAt, type AccountState } from './state.js';

/** A merchant's balance as the provider's Get Balance reads it. */
export interface BalanceReading {
  /** The ledger balance: what is in the account, payouts still pending included. */
  readonly ledger: Paise;
  /** The ledger balance minus the sum of all pending transfers: what can still be paid out. */
  readonly available: Paise;
}

/**
 * The account's balances now (provider-facts.md, "Long waits, balance and approvals": "available
 * balance is ledger balance minus the sum of all pending transfers"). A payout's debit (amount
 * and fee) leaves the available balance when it is accepted and the ledger once it is no longer
 * pending (paid); FAILED, REJECTED and REVERSED give both back. A transfer QUEUED for balance
 * is not debited yet, so it counts in neither. Settles first (refunds due by now).
 */
export function balanceOf(account: AccountState, now: number): BalanceReading {
  account.settle();
  let pending = 0n;
  for (const t of account.transfers.values()) {
    if (!t.debited || t.refunded) continue;
    if (inFlight(stepAt(t, now).status)) pending += debitOf(t);
  }
  return { ledger: account.balance + pending, available: account.balance };
}
