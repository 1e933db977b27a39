import type pg from 'pg';
import {
  type CommittedFunds,
  FUNDS_STAGES,
  type FundsRepository,
  type FundsStage,
  fromPaise,
  type HeldForFunds,
  type HeldKey,
  toPaise,
} from '#ledger';
import { type BalanceReading, type BalanceReadings } from './balance-readings.js';
import { type FundsHoldAccount } from './funds-hold.config.js';

/** A number of payouts (and batch entries) and their sum, exact decimal. */
export interface FundsFigure {
  readonly count: number;
  readonly amount: string;
}

/** What waits for funds (HELD_FOR_FUNDS), and since when the longest-held of it waits. */
export interface HeldFigure extends FundsFigure {
  /** The oldest `held_since` of the account's held payouts and batches; null when none is held. */
  readonly oldestSince: Date | null;
}

/** One account's funds: what is in flight, what waits to be sent, and the provider's balance. */
export interface AccountFunds {
  readonly accountId: string;
  /** Sent to the provider and not settled (`in_flight`). */
  readonly inFlight: FundsFigure;
  /** Not sent yet: `queued`, `awaitingApproval` and `heldForFunds` together. */
  readonly waiting: FundsFigure;
  /** Accepted, waiting for the executor (RECEIVED). */
  readonly queued: FundsFigure;
  /** Held by the account's approval policy (AWAITING_APPROVAL); it may never be sent. */
  readonly awaitingApproval: FundsFigure;
  /** Held until the provider's balance has room for it (HELD_FOR_FUNDS). */
  readonly heldForFunds: HeldFigure;
  /**
   * Holding for funds of the account: the threshold kept back and the fee counted per transfer
   * (exact decimals) and the maximum hold; null while holding is off for it (its payouts are sent
   * without looking at the balance).
   */
  readonly hold: { readonly threshold: string; readonly fee: string; readonly maxHoldMs: number } | null;
  /** The provider's available balance as last read; null while no reading is known. */
  readonly balance: BalanceReading | null;
}

const ZERO: FundsFigure = { count: 0, amount: '0.00' };

function add(a: FundsFigure, b: FundsFigure): FundsFigure {
  return { count: a.count + b.count, amount: fromPaise(toPaise(a.amount) + toPaise(b.amount)) };
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}

/**
 * The repository's rows per account and stage as one entry per account: every configured account
 * (zeros when it has nothing), then any other account that has live payouts (one taken out of the
 * configuration with payouts still open), in name order. `holds`: the accounts with holding on.
 */
export function fundsByAccount(
  rows: readonly CommittedFunds[],
  accountIds: readonly string[],
  holds: ReadonlyMap<string, FundsHoldAccount> = new Map(),
): Array<Omit<AccountFunds, 'balance'>> {
  const figures = new Map<string, Map<FundsStage, FundsFigure>>();
  const heldSince = new Map<string, Date | null>();
  for (const id of accountIds) figures.set(id, new Map());
  for (const r of rows) {
    const stages = figures.get(r.accountId) ?? new Map<FundsStage, FundsFigure>();
    figures.set(r.accountId, stages);
    stages.set(r.stage, add(stages.get(r.stage) ?? ZERO, { count: r.count, amount: r.amount }));
    if (r.stage === 'held_for_funds')
      heldSince.set(r.accountId, earliest(heldSince.get(r.accountId) ?? null, r.heldSince));
  }
  return [...figures.keys()].sort().map((accountId) => {
    const s = figures.get(accountId)!;
    const [inFlight, queued, awaitingApproval, held] = FUNDS_STAGES.map((stage) => s.get(stage) ?? ZERO) as [
      FundsFigure,
      FundsFigure,
      FundsFigure,
      FundsFigure,
    ];
    const h = holds.get(accountId);
    return {
      accountId,
      inFlight,
      queued,
      awaitingApproval,
      heldForFunds: { ...held, oldestSince: held.count > 0 ? (heldSince.get(accountId) ?? null) : null },
      waiting: add(add(queued, awaitingApproval), held),
      hold: h
        ? { threshold: fromPaise(h.thresholdPaise), fee: fromPaise(h.feePaise), maxHoldMs: h.maxHoldMs }
        : null,
    };
  });
}

/** What the funds view (ops API, console) and the funds gauges read. */
export class FundsView {
  constructor(
    private readonly d: {
      readonly pool: pg.Pool;
      readonly funds: Pick<FundsRepository, 'committed' | 'held'>;
      readonly accountIds: readonly string[];
      readonly balances: BalanceReadings;
      /** The accounts with holding for funds on (FundsHoldSettings' `accounts`). */
      readonly holds: ReadonlyMap<string, FundsHoldAccount>;
    },
  ) {}

  /** The rows of one grouped query, no more (the gauges cache it). */
  committed(): Promise<CommittedFunds[]> {
    return this.d.funds.committed(this.d.pool);
  }

  get accountIds(): readonly string[] {
    return this.d.accountIds;
  }

  /** The accounts with holding for funds on, and their settings. */
  get holds(): ReadonlyMap<string, FundsHoldAccount> {
    return this.d.holds;
  }

  balance(accountId: string): Promise<BalanceReading | null> {
    return this.d.balances.latest(accountId);
  }

  async read(): Promise<AccountFunds[]> {
    const accounts = fundsByAccount(await this.committed(), this.d.accountIds, this.d.holds);
    return Promise.all(accounts.map(async (a) => ({ ...a, balance: await this.balance(a.accountId) })));
  }

  /** One account's payouts and batches held for funds, oldest first, after `after`. */
  held(accountId: string, after: HeldKey | null, limit: number): Promise<HeldForFunds[]> {
    return this.d.funds.held(this.d.pool, accountId, after, limit);
  }
}
