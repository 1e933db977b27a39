import { env, envVar } from '#config';

/** The balance reader's settings (issue 32), part of the pipeline section (pipeline.config.ts spreads them in). */
export const BALANCE_VARS = {
  BALANCE_READ_INTERVAL_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '60000',
    description:
      "How often each configured account's balance is read from the provider (Get Balance; reconciler role, one instance reads per interval, claimed in Postgres): the latest reading is what GET /ops/funds, the console's Funds page and payouts_funds_available_paise show. A failed read keeps the last reading with its time and is counted (payouts_balance_reads_total). The provider's LOW_BALANCE_ALERT and CREDIT_CONFIRMATION webhooks make the account due at once. 0: never read (no reading is shown)",
  }),
};

/** How often an instance looks for accounts due at most (a notice handled by another role's instance waits at most this). */
export const BALANCE_LOOK_MAX_MS = 10_000;

export interface BalanceReaderSettings {
  /** 0: off. */
  readonly intervalMs: number;
  /** How often an instance looks for due accounts (default min(interval, 10 s)). */
  readonly lookMs?: number;
}

export function balanceReaderSettings(c: {
  readonly BALANCE_READ_INTERVAL_MS: number;
}): BalanceReaderSettings {
  return { intervalMs: c.BALANCE_READ_INTERVAL_MS };
}
