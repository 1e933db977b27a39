import { type FundsHoldPort } from '../shared/held-accounts.js';
import { decideFundsHold, fundsRoomPaise } from './decide-funds-hold.js';
import { type FundsHoldSettings } from './funds-hold.config.js';

/**
 * The claim loops' view of FUNDS_HOLD (ADR 0027): the held accounts, and for each the rule
 * (decideFundsHold) with its threshold and maximum hold, and the room it leaves (fundsRoomPaise). The ledger reads the facts and applies the
 * verdicts; the rule stays here.
 */
export function fundsHoldRule(settings: FundsHoldSettings): FundsHoldPort {
  const account = (accountId: string) => {
    const a = settings.accounts.get(accountId);
    if (!a) throw new Error(`${accountId} is not an account in FUNDS_HOLD`);
    return a;
  };
  return {
    accountIds: [...settings.accounts.keys()].sort(),
    decide: (accountId) => {
      const a = account(accountId);
      return (candidates, facts) =>
        decideFundsHold(candidates, { ...facts, threshold: a.thresholdPaise, maxHoldMs: a.maxHoldMs });
    },
    room: (accountId) => {
      const a = account(accountId);
      return (facts) => fundsRoomPaise({ ...facts, threshold: a.thresholdPaise });
    },
    fee: (accountId) => account(accountId).feePaise,
  };
}
