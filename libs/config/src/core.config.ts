import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from './config-section.js';

/** Variables every process of the service reads. Later libraries add their own sections. */
export const coreConfig = defineSection('core', {
  DATABASE_URL: envVar({
    schema: env.url(['postgres', 'postgresql']),
    default: 'postgres://postgres@127.0.0.1:5432/payouts',
    description: 'PostgreSQL connection URL for the ledger',
    sensitive: true,
  }),
  DATABASE_POOL_SIZE: envVar({
    schema: env.positiveInt(),
    default: '10',
    description: 'Maximum connections in the pg pool',
  }),
  KAFKA_BROKERS: envVar({
    schema: env.hostPortList(),
    default: '127.0.0.1:9092',
    description: 'Comma-separated Kafka bootstrap brokers (host:port)',
  }),
  KAFKA_CLIENT_ID: envVar({
    schema: env.string(),
    default: 'payout-service',
    description: 'Kafka client id, shown in broker logs and metrics',
  }),
  KAFKA_PARTITIONS_CONCURRENCY: envVar({
    schema: env.positiveInt(),
    default: '6',
    description: 'Partitions of a topic handled at once per instance (each batch is its own transaction)',
  }),
  KAFKA_SESSION_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '6000',
    description:
      "How long the group waits for a silent (killed) instance before giving its partitions to others; a restarted instance waits this long to join. Within the broker's group.min/max.session.timeout.ms (6000 by default)",
  }),
  KAFKA_HEARTBEAT_INTERVAL_MS: envVar({
    schema: env.positiveInt(),
    default: '1000',
    description:
      'Consumer heartbeat interval (also while a batch is handled); well below KAFKA_SESSION_TIMEOUT_MS',
  }),
  KAFKA_TOPIC_PREFIX: envVar({
    schema: env.enumOf(['']).or(envVarPrefix()),
    default: '',
    description: 'Prefix added to every topic name (tests and shared clusters)',
  }),
  HTTP_PORT: envVar({
    schema: env.listenPort(),
    default: '3000',
    description: 'Port for /health, /metrics and the operations API',
  }),
  LOG_LEVEL: envVar({
    schema: env.enumOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    description: 'Minimum log level',
  }),
  SHUTDOWN_GRACE_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      "How long SIGTERM lets in-flight provider calls finish and record their outcome (keep it above PROVIDER_TRANSFER_HEADERS_TIMEOUT_MS plus an authorize, and below the orchestrator's grace period); calls still running near its end are marked UNKNOWN for a status check",
  }),
});

function envVarPrefix() {
  return env.string().regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, underscore and hyphen only');
}

export type CoreConfig = SectionValues<typeof coreConfig.vars>;

/**
 * The provider's two hosts: `{base_url}` (v2 and verification) and `{payout_url}` (legacy).
 * Unset, both point at the local provider sandbox on SANDBOX_PORT.
 */
export const providerHostsConfig = defineSection('provider-hosts', {
  SANDBOX_PORT: envVar({
    schema: env.port(),
    default: '8090',
    description: 'Port of the local provider sandbox',
  }),
  PROVIDER_BASE_URL: envVar({
    schema: env.url(['http', 'https']).or(z.literal('sandbox')),
    default: 'sandbox',
    description:
      "Provider {base_url} (v2 transfers, verification); 'sandbox' means http://127.0.0.1:$SANDBOX_PORT",
  }),
  PROVIDER_PAYOUT_URL: envVar({
    schema: env.url(['http', 'https']).or(z.literal('sandbox')),
    default: 'sandbox',
    description:
      "Provider {payout_url} (legacy /payout/v1 paths); 'sandbox' means http://127.0.0.1:$SANDBOX_PORT",
  }),
});

export interface ProviderHosts {
  readonly baseUrl: string;
  readonly payoutUrl: string;
}

export function resolveProviderHosts(v: SectionValues<typeof providerHostsConfig.vars>): ProviderHosts {
  const sandbox = `http://127.0.0.1:${v.SANDBOX_PORT}`;
  const pick = (u: string) => (u === 'sandbox' ? sandbox : u.replace(/\/+$/, ''));
  return { baseUrl: pick(v.PROVIDER_BASE_URL), payoutUrl: pick(v.PROVIDER_PAYOUT_URL) };
}
