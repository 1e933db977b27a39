import type pg from 'pg';
import {
  type CommittedFunds,
  FUNDS_STAGES,
  type FundsRepository,
  type FundsStage,
  fromPaise,
  toPaise,
} from '#ledger';
import { type BalanceReading, type BalanceReadings } from './balance-readings.js';

/** A number of payouts (and batch entries) and their sum, exact decimal. */
export interface FundsFigure {
  readonly count: number;
  readonly amount: string;
}

/** One account's funds: what is in flight, what waits to be sent, and the provider's balance. */
export interface AccountFunds {
  readonly accountId: string;
  /** Sent to the provider and not settled (`in_flight`). */
  readonly inFlight: FundsFigure;
  /** Not sent yet: `queued` and `awaitingApproval` together. */
  readonly waiting: FundsFigure;
  /** Accepted, waiting for the executor (RECEIVED). */
  readonly queued: FundsFigure;
  /** Held by the account's approval policy (AWAITING_APPROVAL); it may never be sent. */
  readonly awaitingApproval: FundsFigure;
  /** The provider's available balance as last read; null while no reading is known. */
  readonly balance: BalanceReading | null;
}

const ZERO: FundsFigure = { count: 0, amount: '0.00' };

function add(a: FundsFigure, b: FundsFigure): FundsFigure {
  return { count: a.count + b.count, amount: fromPaise(toPaise(a.amount) + toPaise(b.amount)) };
}

/**
 * The repository's rows per account and stage as one entry per account: every configured account
 * (zeros when it has nothing), then any other account that has live payouts (one taken out of the
 * configuration with payouts still open), in name order.
 */
export function fundsByAccount(
  rows: readonly CommittedFunds[],
  accountIds: readonly string[],
): Array<Omit<AccountFunds, 'balance'>> {
  const figures = new Map<string, Map<FundsStage, FundsFigure>>();
  for (const id of accountIds) figures.set(id, new Map());
  for (const r of rows) {
    const stages = figures.get(r.accountId) ?? new Map<FundsStage, FundsFigure>();
    figures.set(r.accountId, stages);
    stages.set(r.stage, add(stages.get(r.stage) ?? ZERO, { count: r.count, amount: r.amount }));
  }
  return [...figures.keys()].sort().map((accountId) => {
    const s = figures.get(accountId)!;
    const [inFlight, queued, awaitingApproval] = FUNDS_STAGES.map((stage) => s.get(stage) ?? ZERO) as [
      FundsFigure,
      FundsFigure,
      FundsFigure,
    ];
    return { accountId, inFlight, queued, awaitingApproval, waiting: add(queued, awaitingApproval) };
  });
}

/** What the funds view (ops API, console) and the funds gauges read. */
export class FundsView {
  constructor(
    private readonly d: {
      readonly pool: pg.Pool;
      readonly funds: FundsRepository;
      readonly accountIds: readonly string[];
      readonly balances: BalanceReadings;
    },
  ) {}

  /** The rows of one grouped query, no more (the gauges cache it). */
  committed(): Promise<CommittedFunds[]> {
    return this.d.funds.committed(this.d.pool);
  }

  get accountIds(): readonly string[] {
    return this.d.accountIds;
  }

  balance(accountId: string): Promise<BalanceReading | null> {
    return this.d.balances.latest(accountId);
  }

  async read(): Promise<AccountFunds[]> {
    const accounts = fundsByAccount(await this.committed(), this.d.accountIds);
    return Promise.all(accounts.map(async (a) => ({ ...a, balance: await this.balance(a.accountId) })));
  }
}
