import { z } from 'zod';
import { env, envVar } from '#config';
import { toPaise } from '#ledger';

/*
 * Finance's low-balance threshold (issue 32, "tell finance in time"), part of the pipeline section
 * (pipeline.config.ts spreads it in). It changes no payout: the FundsLowBalance alert compares the
 * balance reading with it (payouts_funds_low_threshold_paise). Runbook: docs/OPERATIONS.md.
 */

const AMOUNT = /^\d{1,14}(\.\d{1,2})?$/;
const amount = z.string().refine((a) => AMOUNT.test(a), 'a decimal amount in rupees, e.g. "50000.00"');

const overrides = env.json(z.record(z.string().min(1), amount), {});

export const FUNDS_ALERT_VARS = {
  FUNDS_LOW_BALANCE_THRESHOLD: envVar({
    schema: amount,
    default: '0',
    description:
      'Finance\'s low-balance threshold of every account, in rupees (decimal, e.g. "50000.00"): the FundsLowBalance alert fires when an account\'s available balance as last read (payouts_funds_available_paise) is below it (payouts_funds_low_threshold_paise), or below what waits to be sent. It holds and refuses nothing. Per account: FUNDS_LOW_BALANCE_THRESHOLDS. 0: only the second condition (and an overdraft) alerts',
  }),
  FUNDS_LOW_BALANCE_THRESHOLDS: envVar({
    schema: overrides,
    default: '',
    description:
      'Per-account low-balance thresholds overriding FUNDS_LOW_BALANCE_THRESHOLD: a JSON object of accountId to rupees, e.g. {"acc_main":"200000.00"}. An account not configured in PROVIDER_ACCOUNTS is ignored (a warning at start). Empty: every account has the global threshold',
  }),
};

/** The threshold of each configured account, in paise. */
export function lowBalanceThresholds(
  c: {
    readonly FUNDS_LOW_BALANCE_THRESHOLD: string;
    readonly FUNDS_LOW_BALANCE_THRESHOLDS: Record<string, string>;
  },
  accountIds: readonly string[],
): ReadonlyMap<string, bigint> {
  return new Map(
    accountIds.map((id) => [
      id,
      toPaise(c.FUNDS_LOW_BALANCE_THRESHOLDS[id] ?? c.FUNDS_LOW_BALANCE_THRESHOLD),
    ]),
  );
}
