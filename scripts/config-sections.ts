import { coreConfig, deploymentConfig, providerHostsConfig, renderConfigDoc } from '#config';
import { ledgerConfig } from '#ledger';
import { tracingConfig } from '#observability';
import { operationsConfig } from '#operations';
import { outboxConfig } from '#outbox';
import { pipelineConfig, webhooksConfig } from '#pipeline';
import { providerClientConfig } from '#provider-client';
import { sandboxConfig } from '#sandbox';
import { SERVICE_DEVELOPMENT_DEFAULTS } from '../apps/payout-service/src/development-defaults.js';

export const CONFIG_DOC_PATH = 'docs/CONFIGURATION.md';

const PRODUCTION = `## Refused in production

With \`DEPLOYMENT_MODE=production\` the service refuses to start (exit 78, one list of every problem,
no value printed) while any of these is left unset (its development default would apply), set to
that default, or set to a value the row refuses; in development it starts and names them in one
warning. The table is \`apps/payout-service/src/development-defaults.ts\`.

| variable | unset or at its default | also refused (set explicitly) |
| --- | --- | --- |
${SERVICE_DEVELOPMENT_DEFAULTS.map((r) => `| \`${r.variable}\` | ${r.why.replace(/\|/g, '\\|')} | ${r.refuse?.what ?? ''} |`).join('\n')}

`;

const TESTS = `## Tests and benchmarks

Read by the test harness and \`npm run bench\`, not by the service.

| variable | default | sensitive | meaning |
| --- | --- | --- | --- |
| \`TEST_DATABASE_URL\` | \`postgres://postgres@127.0.0.1:5432/payouts_test\` |  | base for per-file test databases; its name must contain \`test\` |
| \`TEST_KAFKA_BROKERS\` | \`127.0.0.1:9092\` |  | broker for integration tests |
| \`BENCH_TRACING\` | (off) |  | \`otlp\`: \`npm run bench\`'s services trace and export to a local sink that discards (docs/BENCHMARKS.md, "Tracing overhead") |
| \`BENCH_DATABASE_URL\` | \`postgres://postgres@127.0.0.1:5432/payouts_bench\` |  | base for benchmark databases |
| \`CHAOS_VARIANT\` | \`full\` |  | \`npm run chaos\`: \`short\` starts from the short variant (as in \`npm test\`) |
| \`CHAOS_COMMANDS\`, \`CHAOS_HOSTILE\`, \`CHAOS_KILLS\`, \`CHAOS_BROKER_RESTARTS\`, \`CHAOS_POSTGRES_RESTARTS\`, \`CHAOS_ROLLING_RESTART\`, \`CHAOS_FAULT_RATE\`, \`CHAOS_SEED\`, \`CHAOS_DURATION\`, \`CHAOS_LEASE\`, \`CHAOS_BASE_PORT\`, ... | see docs/RELIABILITY.md |  | the chaos run's scale (the same as \`--commands=\` etc.; test/chaos/config.ts) |
| \`CHAOS_RESTART_TEST_PORT\` | (a free port) |  | HTTP port of the service in test/chaos/restart.int-spec.ts |
`;

export function renderConfiguration(): string {
  return renderConfigDoc(
    [
      {
        title: 'Deployment mode and boot',
        source: 'libs/config/src/deployment.config.ts',
        section: deploymentConfig,
      },
      { title: 'Core', source: 'libs/config/src/core.config.ts', section: coreConfig },
      { title: 'Provider hosts', source: 'libs/config/src/core.config.ts', section: providerHostsConfig },
      {
        title: 'Provider client',
        source: 'libs/provider-client/src/provider-client.config.ts',
        section: providerClientConfig,
      },
      { title: 'Ledger', source: 'libs/ledger/src/ledger.config.ts', section: ledgerConfig },
      {
        title: 'Pipeline (intake, executor, reconciler)',
        source: 'libs/pipeline/src/pipeline.config.ts',
        section: pipelineConfig,
      },
      {
        title: 'Webhooks (role `webhooks`, ADR 0013)',
        source: 'libs/pipeline/src/webhooks/webhooks.config.ts',
        section: webhooksConfig,
      },
      { title: 'Outbox relay', source: 'libs/outbox/src/outbox.config.ts', section: outboxConfig },
      {
        title: 'Operations API',
        source: 'libs/operations/src/operations.config.ts',
        section: operationsConfig,
      },
      {
        title: 'Tracing (OpenTelemetry)',
        source: 'libs/observability/src/tracing.config.ts',
        section: tracingConfig,
      },
      {
        title: 'Provider sandbox (apps/provider-sandbox)',
        source: 'libs/sandbox/src/core/sandbox.config.ts',
        section: sandboxConfig,
      },
    ],
    PRODUCTION + TESTS,
  );
}
