import { type Registry } from 'prom-client';
import { type Tracing } from '#observability';
import { type SignatureProvider } from './auth/signature-provider.js';
import { type ProviderClientLogger } from './call-recorder.js';
import { noopProviderClientMetrics, type ProviderClientMetrics } from './metrics/provider-client-metrics.js';
import { PromProviderClientMetrics } from './metrics/prom-provider-client-metrics.js';
import { ProviderClient } from './provider-client.js';
import { type ProviderAccount, type ProviderClientOptions } from './provider-client.options.js';
import { type HttpTransport, UndiciTransport } from './transport/http-transport.js';
import { type RateBudget } from './rate-budget/rate-budget.js';

export interface ProviderClientDeps {
  /** Metrics port; or pass `registry` to get the prom-client implementation. Default: none. */
  readonly metrics?: ProviderClientMetrics;
  readonly registry?: Registry;
  readonly logger?: ProviderClientLogger;
  readonly transport?: HttpTransport;
  /** Overrides the RSA signer built from each account's public key. */
  readonly signer?: (account: ProviderAccount) => SignatureProvider | undefined;
  readonly now?: () => number;
  readonly random?: () => number;
  /**
   * What the client asks before each send; the client closes it. Default: a token bucket per
   * (account, endpoint) in this process. Several instances on one account need a shared one
   * (SharedRateBudget over a store every instance reaches).
   */
  readonly rateBudget?: RateBudget;
  /** A client span per call (ADR 0015); default none. */
  readonly tracing?: Tracing;
}

export function createProviderClient(
  options: ProviderClientOptions,
  deps: ProviderClientDeps = {},
): ProviderClient {
  const metrics =
    deps.metrics ??
    (deps.registry
      ? new PromProviderClientMetrics(
          deps.registry,
          options.accounts.map((a) => a.accountId),
        )
      : noopProviderClientMetrics);
  return new ProviderClient(options, {
    transport: deps.transport ?? new UndiciTransport(),
    metrics,
    logger: deps.logger,
    signer: deps.signer,
    now: deps.now,
    random: deps.random,
    rateBudget: deps.rateBudget,
    tracing: deps.tracing,
  });
}
