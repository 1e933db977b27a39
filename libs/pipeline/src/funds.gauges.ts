import { Gauge, type Registry } from 'prom-client';
import { type CommittedFunds, FUNDS_STAGES, toPaise } from '#ledger';
import { cachedSource } from './pipeline.gauges.js';
import { type BalanceReading } from './funds/balance-readings.js';
import { fundsByAccount, type FundsView } from './funds/funds-view.js';

/**
 * The funds gauges (issue 32), computed on scrape from one grouped query (FundsRepository),
 * cached `minIntervalMs` (5 s) and kept when a read fails. Amounts are integer paise: a float64
 * holds them exactly up to 2^53 paise. `account` is a configured account id (a bounded set), and
 * `stage` one of FUNDS_STAGES; every configured account reports every stage, 0 when empty.
 * payouts_funds_held_oldest_seconds{account}: how long the longest-held payout or batch of the
 * account has been HELD_FOR_FUNDS (from its held_since, on scrape), 0 when none is (ADR 0027).
 */
export class FundsGauges {
  constructor(
    registry: Registry,
    view: Pick<FundsView, 'committed' | 'accountIds' | 'balance'>,
    minIntervalMs = 5_000,
    now: () => number = Date.now,
  ) {
    const committed = cachedSource(() => view.committed(), [] as readonly CommittedFunds[], minIntervalMs);
    const figures = async () => fundsByAccount(await committed(), view.accountIds);
    const stageOf = {
      in_flight: 'inFlight',
      queued: 'queued',
      awaiting_approval: 'awaitingApproval',
      held_for_funds: 'heldForFunds',
    } as const;
    new Gauge({
      name: 'payouts_funds_amount_paise',
      help: 'Sum of the payouts and batch entries of an account, in paise, by stage: in_flight (sent, not settled), queued (RECEIVED), awaiting_approval, held_for_funds (HELD_FOR_FUNDS)',
      labelNames: ['account', 'stage'],
      registers: [registry],
      async collect() {
        const all = await figures();
        this.reset();
        for (const a of all)
          for (const stage of FUNDS_STAGES)
            this.set({ account: a.accountId, stage }, Number(toPaise(a[stageOf[stage]].amount)));
      },
    });
    new Gauge({
      name: 'payouts_funds_payouts',
      help: 'Payouts and batch entries of an account by stage: in_flight (sent, not settled), queued (RECEIVED), awaiting_approval, held_for_funds (HELD_FOR_FUNDS)',
      labelNames: ['account', 'stage'],
      registers: [registry],
      async collect() {
        const all = await figures();
        this.reset();
        for (const a of all)
          for (const stage of FUNDS_STAGES)
            this.set({ account: a.accountId, stage }, a[stageOf[stage]].count);
      },
    });
    new Gauge({
      name: 'payouts_funds_held_oldest_seconds',
      help: 'Seconds the longest-held payout or batch of an account has waited in HELD_FOR_FUNDS (since its held_since); 0 when none is held. PayoutsHeldTooLong compares it with payouts_funds_max_hold_seconds',
      labelNames: ['account'],
      registers: [registry],
      async collect() {
        const all = await figures();
        const at = now();
        this.reset();
        for (const a of all) {
          const since = a.heldForFunds.oldestSince;
          this.set({ account: a.accountId }, since ? Math.max(0, (at - since.getTime()) / 1000) : 0);
        }
      },
    });
    const readings = cachedSource(
      async () =>
        new Map(await Promise.all(view.accountIds.map(async (id) => [id, await view.balance(id)] as const))),
      new Map<string, BalanceReading | null>() as ReadonlyMap<string, BalanceReading | null>,
      minIntervalMs,
    );
    new Gauge({
      name: 'payouts_funds_available_paise',
      help: "The provider's available balance of an account as last read, in paise; no series while no reading is known",
      labelNames: ['account'],
      registers: [registry],
      async collect() {
        const all = await readings();
        this.reset();
        for (const [account, r] of all) if (r) this.set({ account }, Number(signedPaise(r.available)));
      },
    });
  }
}

/** A balance may be below zero (an overdraft); amounts of payouts never are. */
function signedPaise(amount: string): bigint {
  return amount.startsWith('-') ? -toPaise(amount.slice(1)) : toPaise(amount);
}
