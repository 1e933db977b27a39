import { type ProviderClientConfig } from '../provider-client.config.js';
import { type ProviderClientOptions } from '../provider-client.options.js';
import { targetPerMinute } from './rate-budget.js';
import { type SharedRateBudgetSettings } from './shared-rate-budget.js';

/** The shared budget's settings from the client's options (limits, fraction) and its config. */
export function sharedRateBudgetSettings(
  o: ProviderClientOptions,
  c: Pick<ProviderClientConfig, 'PROVIDER_RATE_BUDGET_BLOCK_MS' | 'PROVIDER_RATE_BUDGET_HORIZON_MS'>,
): SharedRateBudgetSettings {
  return {
    perMinuteFor: (rc) => targetPerMinute(o.ratePerMinute, rc, o.rateTargetFraction),
    limitPerMinuteFor: (rc) => targetPerMinute(o.ratePerMinute, rc),
    windowMs: o.rateWindowMs,
    blockMs: c.PROVIDER_RATE_BUDGET_BLOCK_MS,
    // A whole block must fit within the horizon.
    horizonMs: Math.max(c.PROVIDER_RATE_BUDGET_HORIZON_MS, c.PROVIDER_RATE_BUDGET_BLOCK_MS),
  };
}
