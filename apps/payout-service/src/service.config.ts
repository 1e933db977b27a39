import {
  ConfigError,
  coreConfig,
  loadConfig,
  providerHostsConfig,
  resolveProviderHosts,
  type CoreConfig,
  type ProviderHosts,
} from '#config';
import { ledgerConfig, type LedgerConfig } from '#ledger';
import { tracingConfig, type TracingConfig } from '#observability';
import {
  oidcSettings,
  operationsConfig,
  type OperationsConfig,
  signInConfig,
  type SignInConfig,
} from '#operations';
import { outboxConfig, type OutboxConfig } from '#outbox';
import { pipelineConfig, type PipelineConfig, webhooksConfig, type WebhooksConfig } from '#pipeline';
import { providerClientConfig, type ProviderClientConfig } from '#provider-client';

export const serviceConfigSections = [
  coreConfig,
  providerHostsConfig,
  providerClientConfig,
  ledgerConfig,
  pipelineConfig,
  outboxConfig,
  operationsConfig,
  signInConfig,
  webhooksConfig,
  tracingConfig,
] as const;

export interface ServiceConfig {
  readonly core: CoreConfig;
  readonly providerHosts: ProviderHosts;
  readonly providerClient: ProviderClientConfig;
  readonly ledger: LedgerConfig;
  readonly pipeline: PipelineConfig;
  readonly outbox: OutboxConfig;
  readonly operations: OperationsConfig;
  readonly signIn: SignInConfig;
  readonly webhooks: WebhooksConfig;
  readonly tracing: TracingConfig;
}

/** Reads and validates the whole environment once; throws ConfigError listing every problem. */
export function loadServiceConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): ServiceConfig {
  const [core, hosts, providerClient, ledger, pipeline, outbox, operations, signIn, webhooks, tracing] =
    loadConfig(serviceConfigSections, source);
  // Each variable was checked on its own; OpenID Connect's must also be complete together.
  const { problems } = oidcSettings(signIn);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    core,
    providerHosts: resolveProviderHosts(hosts),
    providerClient,
    ledger,
    pipeline,
    outbox,
    operations,
    signIn,
    webhooks,
    tracing,
  };
}
