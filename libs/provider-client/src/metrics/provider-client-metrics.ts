import { type OutcomeClass } from '../core/outcome.js';

/**
 * Port for the client's metrics. Labels are endpoint templates, outcome classes and configured
 * account ids (configuration, as the funds gauges label them) only: never a payout's id, an amount
 * or personal data, so cardinality stays fixed and nothing sensitive is exported.
 */
export interface ProviderClientMetrics {
  observeRequest(endpointTemplate: string, outcome: OutcomeClass, seconds: number): void;
  authorize(result: OutcomeClass): void;
  rateLimitWait(endpointTemplate: string, seconds: number): void;
  /** The provider refused a call for its rate limit (HTTP 429 / subCode 429). */
  rateLimited(endpointTemplate: string): void;
  /**
   * The provider refused or failed a transfer of a configured account for its balance (a result
   * with `shortOfFunds`, issue 32): an answer, counted each time one says so.
   */
  balanceRefused(accountId: string): void;
}

export const noopProviderClientMetrics: ProviderClientMetrics = {
  observeRequest: () => undefined,
  authorize: () => undefined,
  rateLimitWait: () => undefined,
  rateLimited: () => undefined,
  balanceRefused: () => undefined,
};
