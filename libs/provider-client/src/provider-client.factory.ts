import { type Registry } from 'prom-client';
import { type SignatureProvider } from './auth/signature-provider.js';
import { type ProviderClientLogger } from './call-recorder.js';
import { noopProviderClientMetrics, type ProviderClientMetrics } from './metrics/provider-client-metrics.js';
import { PromProviderClientMetrics } from './metrics/prom-provider-client-metrics.js';
import { ProviderClient } from './provider-client.js';
import { type ProviderAccount, type ProviderClientOptions } from './provider-client.options.js';
import { type HttpTransport, UndiciTransport } from './transport/http-transport.js';

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
}

export function createProviderClient(
  options: ProviderClientOptions,
  deps: ProviderClientDeps = {},
): ProviderClient {
  const metrics =
    deps.metrics ??
    (deps.registry ? new PromProviderClientMetrics(deps.registry) : noopProviderClientMetrics);
  return new ProviderClient(options, {
    transport: deps.transport ?? new UndiciTransport(),
    metrics,
    logger: deps.logger,
    signer: deps.signer,
    now: deps.now,
    random: deps.random,
  });
}
