import { Counter, Gauge, type Registry } from 'prom-client';
import { cachedSource } from './pipeline.gauges.js';
import { type BalanceReading } from './funds/balance-readings.js';
import { type FundsHoldAccount } from './funds/funds-hold.config.js';

/**
 * The series the funds alerts compare (issue 32, "tell finance in time"; docs/OPERATIONS.md,
 * FundsLowBalance, FundsTimeToEmpty, BalanceReadingStale), beside the funds gauges:
 * - payouts_funds_low_threshold_paise{account}: finance's threshold (configuration), so the alert
 *   compares two series and the threshold is visible where the balance is;
 * - payouts_balance_reading_age_seconds{account}: how old the account's latest reading is, on
 *   scrape (a failed read keeps the last reading, so a failing reader shows as a growing age);
 *   only while the reader is on and a reading is known;
 * - payouts_funds_max_hold_seconds{account}: the account's maximum hold for funds (FUNDS_HOLD's
 *   `maxHold`), only for accounts with holding on, so PayoutsHeldTooLong compares two series.
 * `account` is a configured account id (a bounded set).
 */
export class FundsAlertGauges {
  constructor(
    registry: Registry,
    view: { readonly accountIds: readonly string[]; balance(id: string): Promise<BalanceReading | null> },
    s: {
      /** Finance's threshold per configured account, in paise. */
      readonly thresholds: ReadonlyMap<string, bigint>;
      /** Whether the balance reader runs (BALANCE_READ_INTERVAL_MS > 0): off, no age is shown. */
      readonly readerOn: boolean;
      /** The accounts with holding for funds on (FundsHoldSettings' `accounts`); none: no series. */
      readonly holds?: ReadonlyMap<string, FundsHoldAccount>;
      readonly minIntervalMs?: number;
      readonly now?: () => number;
    },
  ) {
    const now = s.now ?? Date.now;
    new Gauge({
      name: 'payouts_funds_low_threshold_paise',
      help: "Finance's low-balance threshold of an account, in paise (FUNDS_LOW_BALANCE_THRESHOLD, FUNDS_LOW_BALANCE_THRESHOLDS): FundsLowBalance fires while payouts_funds_available_paise is below it",
      labelNames: ['account'],
      registers: [registry],
      collect() {
        this.reset();
        for (const account of view.accountIds) this.set({ account }, Number(s.thresholds.get(account) ?? 0n));
      },
    });
    new Gauge({
      name: 'payouts_funds_max_hold_seconds',
      help: "The maximum hold for funds of an account, in seconds (FUNDS_HOLD's maxHold, default FUNDS_MAX_HOLD): held longer, a payout or batch ends REJECTED (funds_hold_expired). Only accounts with holding on",
      labelNames: ['account'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [account, h] of s.holds ?? []) this.set({ account }, h.maxHoldMs / 1000);
      },
    });
    const readAts = cachedSource(
      async () =>
        new Map(
          await Promise.all(
            view.accountIds.map(async (id) => [id, (await view.balance(id))?.readAt ?? null] as const),
          ),
        ),
      new Map<string, Date | null>() as ReadonlyMap<string, Date | null>,
      s.minIntervalMs ?? 5_000,
    );
    new Gauge({
      name: 'payouts_balance_reading_age_seconds',
      help: "Age of an account's latest balance reading, in seconds (a failed read keeps the last reading, so it grows while reads fail); no series while the reader is off or nothing was read yet",
      labelNames: ['account'],
      registers: [registry],
      async collect() {
        this.reset();
        if (!s.readerOn) return;
        for (const [account, at] of await readAts())
          if (at) this.set({ account }, Math.max(0, (now() - at.getTime()) / 1000));
      },
    });
  }
}

/**
 * payouts_paid_amount_paise_total{account}: the amount of every payout and batch entry that
 * entered SUCCESS on this instance, in paise, counted by the ledger after the commit (its
 * `paid` port). Summed over instances, its rate is the account's outflow (FundsTimeToEmpty).
 */
export class PromPaidMetrics {
  private readonly counter: Counter<'account'>;
  constructor(registry: Registry) {
    this.counter = new Counter({
      name: 'payouts_paid_amount_paise_total',
      help: 'Amount paid out by account, in paise: each payout and batch entry entering SUCCESS, counted once after its ledger transaction commits, on the instance that recorded it',
      labelNames: ['account'],
      registers: [registry],
    });
  }
  /** The ledgers' `paid` port. */
  readonly paid = (accountId: string, amountPaise: bigint): void => {
    this.counter.inc({ account: accountId }, Number(amountPaise));
  };
}
