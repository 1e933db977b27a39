import {
  coreConfig,
  loadConfig,
  providerHostsConfig,
  resolveProviderHosts,
  type CoreConfig,
  type ProviderHosts,
} from '#config';
import { ledgerConfig, type LedgerConfig } from '#ledger';
import { tracingConfig, type TracingConfig } from '#observability';
import { operationsConfig, type OperationsConfig } from '#operations';
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
  readonly webhooks: WebhooksConfig;
  readonly tracing: TracingConfig;
}

/** Reads and validates the whole environment once; throws ConfigError listing every problem. */
export function loadServiceConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): ServiceConfig {
  const [core, hosts, providerClient, ledger, pipeline, outbox, operations, webhooks, tracing] = loadConfig(
    serviceConfigSections,
    source,
  );
  return {
    core,
    providerHosts: resolveProviderHosts(hosts),
    providerClient,
    ledger,
    pipeline,
    outbox,
    operations,
    webhooks,
    tracing,
  };
}
