import { Counter, Histogram, type Registry } from 'prom-client';
import { type OutcomeClass } from '../core/outcome.js';
import { type ProviderClientMetrics } from './provider-client-metrics.js';

/** prom-client implementation of the metrics port, registered on the process's one registry. */
export class PromProviderClientMetrics implements ProviderClientMetrics {
  private readonly duration: Histogram<'endpoint' | 'outcome'>;
  private readonly authorizations: Counter<'result'>;
  private readonly waits: Histogram<'endpoint'>;
  private readonly limited: Counter<'endpoint'>;
  private readonly bounced: Counter<'account'>;

  /** `accounts`: the configured accounts, whose refusal counts start at 0 (alerts see the first). */
  constructor(registry: Registry, accounts: readonly string[] = []) {
    this.duration = new Histogram({
      name: 'payouts_provider_request_duration_seconds',
      help: 'Provider call duration by endpoint template and outcome class, retries included',
      labelNames: ['endpoint', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    this.authorizations = new Counter({
      name: 'payouts_provider_authorize_total',
      help: 'Legacy authorize calls by outcome class',
      labelNames: ['result'],
      registers: [registry],
    });
    this.waits = new Histogram({
      name: 'payouts_provider_rate_limit_wait_seconds',
      help: 'Time spent waiting for the rate budget (local or shared) or a provider 429 before sending',
      labelNames: ['endpoint'],
      buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 15, 60],
      registers: [registry],
    });
    this.limited = new Counter({
      name: 'payouts_provider_rate_limited_total',
      help: 'Calls the provider refused for its rate limit (429): the budget was too generous, or shared wrongly',
      labelNames: ['endpoint'],
      registers: [registry],
    });
    this.bounced = new Counter({
      name: 'payouts_provider_balance_refusals_total',
      help: 'Provider answers (and applied v2 webhooks) that refused or failed a transfer for the account balance (insufficient balance), by configured account: a payout bounced that holding for funds should have kept',
      labelNames: ['account'],
      registers: [registry],
    });
    // A series born at its first refusal would hide that refusal from increase(): start at 0.
    for (const account of accounts) this.bounced.inc({ account }, 0);
  }

  observeRequest(endpointTemplate: string, outcome: OutcomeClass, seconds: number): void {
    this.duration.observe({ endpoint: endpointTemplate, outcome }, seconds);
  }

  authorize(result: OutcomeClass): void {
    this.authorizations.inc({ result });
  }

  rateLimitWait(endpointTemplate: string, seconds: number): void {
    this.waits.observe({ endpoint: endpointTemplate }, seconds);
  }

  rateLimited(endpointTemplate: string): void {
    this.limited.inc({ endpoint: endpointTemplate });
  }

  balanceRefused(accountId: string): void {
    this.bounced.inc({ account: accountId });
  }
}
