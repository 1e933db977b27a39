import {
  coreConfig,
  loadConfig,
  providerHostsConfig,
  resolveProviderHosts,
  type CoreConfig,
  type ProviderHosts,
} from '#config';

export const serviceConfigSections = [coreConfig, providerHostsConfig] as const;

export interface ServiceConfig {
  readonly core: CoreConfig;
  readonly providerHosts: ProviderHosts;
}

/** Reads and validates the whole environment once; throws ConfigError listing every problem. */
export function loadServiceConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): ServiceConfig {
  const [core, hosts] = loadConfig(serviceConfigSections, source);
  return { core, providerHosts: resolveProviderHosts(hosts) };
}
