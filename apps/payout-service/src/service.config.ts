import {
  ConfigError,
  coreConfig,
  deploymentConfig,
  developmentValuesInUse,
  loadSection,
  providerHostsConfig,
  resolveProviderHosts,
  type ConfigSection,
  type CoreConfig,
  type SectionSpec,
  type DeploymentConfig,
  type DevelopmentValue,
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
import {
  fundsHoldSettings,
  pipelineConfig,
  type PipelineConfig,
  webhooksConfig,
  type WebhooksConfig,
} from '#pipeline';
import { providerClientConfig, type ProviderClientConfig, sharedSecretProblems } from '#provider-client';
import { SERVICE_DEVELOPMENT_DEFAULTS } from './development-defaults.js';

export const serviceConfigSections = [
  deploymentConfig,
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
  readonly deployment: DeploymentConfig;
  /** The development values in use (none in production, which refuses them): warned about at boot. */
  readonly developmentValues: readonly DevelopmentValue[];
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

/**
 * Reads and validates the whole environment once; throws ConfigError listing every problem: each
 * invalid variable and, with DEPLOYMENT_MODE=production, each development value in use.
 */
export function loadServiceConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): ServiceConfig {
  const problems: string[] = [];
  const load = <S extends SectionSpec>(s: ConfigSection<S>) => loadSection(s, source, problems);
  const deployment = load(deploymentConfig);
  const core = load(coreConfig);
  const hosts = load(providerHostsConfig);
  const beforeAccounts = problems.length;
  const providerClient = load(providerClientConfig);
  // Each account was checked on its own; their secrets must also differ (webhook keys).
  if (problems.length === beforeAccounts) problems.push(...sharedSecretProblems(providerClient));
  const ledger = load(ledgerConfig);
  const pipeline = load(pipelineConfig);
  // FUNDS_HOLD against the accounts and the balance reader (ADR 0027): refused at start, not at
  // the first claim.
  if (problems.length === 0) {
    try {
      fundsHoldSettings(pipeline, [
        providerClient.PROVIDER_ACCOUNT_ID,
        ...(providerClient.PROVIDER_ACCOUNTS ?? []).map((a) => a.accountId),
      ]);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
    }
  }
  const outbox = load(outboxConfig);
  const operations = load(operationsConfig);
  const before = problems.length;
  const signIn = load(signInConfig);
  // Each variable was checked on its own; OpenID Connect's must also be complete together.
  if (problems.length === before) problems.push(...oidcSettings(signIn).problems);
  const webhooks = load(webhooksConfig);
  const tracing = load(tracingConfig);
  const developmentValues = developmentValuesInUse(
    serviceConfigSections,
    SERVICE_DEVELOPMENT_DEFAULTS,
    source,
  );
  const production = deployment.DEPLOYMENT_MODE === 'production';
  if (production) problems.push(...developmentValues.map((d) => d.problem));
  if (problems.length > 0)
    throw new ConfigError(
      problems,
      production && developmentValues.length > 0
        ? 'DEPLOYMENT_MODE=production refuses every development default (docs/OPERATIONS.md, "Deployment mode").'
        : undefined,
    );
  return {
    deployment,
    developmentValues,
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
