import type pg from 'pg';
import { type Registry } from 'prom-client';
import { type ServiceConfig } from './service.config.js';
import { BalanceReadingRepository, FundsRepository } from '#ledger';
import { type AppLogger, type WorkerMetricsPort } from '#observability';
import {
  BalanceReader,
  balanceReaderSettings,
  FundsAlertGauges,
  fundsHoldSettings,
  FundsView,
  lowBalanceThresholds,
  PromBalanceReadMetrics,
} from '#pipeline';
import { type ProviderPort } from '#provider-client';

export interface FundsInputs {
  readonly config: ServiceConfig;
  readonly pool: pg.Pool;
  readonly registry: Registry;
  readonly logger: AppLogger;
  readonly provider: ProviderPort;
  readonly workerMetrics: WorkerMetricsPort;
  /** A new reading of an account was kept: the claim loops release what it now funds (ADR 0027). */
  readonly onReading?: (accountId: string) => void;
}

/**
 * Funds (issue 32): the provider's balance of each account, read every BALANCE_READ_INTERVAL_MS
 * by the reconciler role and kept in Postgres so every instance shows the same reading, and what
 * each account has committed beside it.
 */
export function createFunds(i: FundsInputs): { balanceReader: BalanceReader; funds: FundsView } {
  // The accounts that hold for funds (FUNDS_HOLD; ADR 0027): shown on the funds view, their
  // maximum hold compared by PayoutsHeldTooLong, their fee counted in what a reading was asked with.
  const holds = fundsHoldSettings(i.config.pipeline, i.provider.accounts.ids).accounts;
  const balanceReader = new BalanceReader(
    {
      pool: i.pool,
      readings: new BalanceReadingRepository(),
      provider: i.provider.queries,
      accountIds: i.provider.accounts.ids,
      feeOf: (accountId) => holds.get(accountId)?.feePaise ?? 0n,
      logger: i.logger,
      metrics: new PromBalanceReadMetrics(i.registry),
      workerMetrics: i.workerMetrics,
      ...(i.onReading ? { onReading: i.onReading } : {}),
    },
    balanceReaderSettings(i.config.pipeline),
  );
  const funds = new FundsView({
    pool: i.pool,
    funds: new FundsRepository(),
    accountIds: i.provider.accounts.ids,
    balances: balanceReader,
    holds,
  });
  const unknown = Object.keys(i.config.pipeline.FUNDS_LOW_BALANCE_THRESHOLDS).filter(
    (id) => !i.provider.accounts.ids.includes(id),
  );
  if (unknown.length > 0)
    i.logger.warn(
      { accounts: unknown },
      'FUNDS_LOW_BALANCE_THRESHOLDS names accounts not configured; ignored',
    );
  // What the funds alerts compare (issue 32, "tell finance in time"): the threshold, the reading's age.
  new FundsAlertGauges(i.registry, funds, {
    thresholds: lowBalanceThresholds(i.config.pipeline, i.provider.accounts.ids),
    readerOn: i.config.pipeline.BALANCE_READ_INTERVAL_MS > 0,
    holds,
  });
  return { balanceReader, funds };
}
