import { type OutcomeClass } from '../core/outcome.js';

/**
 * Port for the client's metrics. Labels are endpoint templates and outcome classes only: never an
 * id, an amount or personal data, so cardinality stays fixed and nothing sensitive is exported.
 */
export interface ProviderClientMetrics {
  observeRequest(endpointTemplate: string, outcome: OutcomeClass, seconds: number): void;
  authorize(result: OutcomeClass): void;
  rateLimitWait(endpointTemplate: string, seconds: number): void;
  /** The provider refused a call for its rate limit (HTTP 429 / subCode 429). */
  rateLimited(endpointTemplate: string): void;
}

export const noopProviderClientMetrics: ProviderClientMetrics = {
  observeRequest: () => undefined,
  authorize: () => undefined,
  rateLimitWait: () => undefined,
  rateLimited: () => undefined,
};
