import { createPool } from '#database';
import { RateBudgetRepository } from '#ledger';
import { type ProviderDeps } from '#provider-client';
import { type AppLogger } from '#observability';
import { type ServiceConfig } from './service.config.js';

/**
 * The provider's limit is the account's: with `postgres` (the default), every instance on this
 * database reserves its send slots from one row per (account, endpoint). The reservations have a
 * pool of their own (2 connections, 5 s statement cap), so they never queue behind the pipeline's
 * statements: a late reservation is budget lost. The provider's shared rate budget reserves from
 * it (createProvider); closing the provider closes it.
 */
export function createRateSlots(i: { config: ServiceConfig; logger: AppLogger }): ProviderDeps['slots'] {
  const c = i.config.providerClient;
  if (c.PROVIDER_RATE_BUDGET !== 'postgres') return undefined;
  const logger = i.logger.child({ component: 'rate-budget' });
  const pool = createPool({
    url: i.config.core.DATABASE_URL,
    max: 2,
    applicationName: `${i.config.core.KAFKA_CLIENT_ID}-rate-budget`,
    statementTimeoutMs: 5_000,
    onConnectionError: (e) =>
      logger.warn({ err: e }, 'a rate budget connection failed; the pool replaces it'),
  });
  return { store: new RateBudgetRepository(pool), close: () => pool.end() };
}
