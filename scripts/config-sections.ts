import { coreConfig, deploymentConfig, providerHostsConfig, renderConfigDoc } from '#config';
import { ledgerConfig } from '#ledger';
import { tracingConfig } from '#observability';
import { operationsConfig, signInConfig } from '#operations';
import { outboxConfig } from '#outbox';
import { pipelineConfig, webhooksConfig } from '#pipeline';
import { providerClientConfig } from '#provider-client';
import { GENERATION_RULES } from '#provider-client/testing';
import { sandboxConfig } from '#sandbox';
import { SERVICE_DEVELOPMENT_DEFAULTS } from '../apps/payout-service/src/development-defaults.js';

export const CONFIG_DOC_PATH = 'docs/CONFIGURATION.md';

const MOVE_TO_V2 = `## Moving an account to the v2 API

An account's generation decides where its new \`standard_transfer\`, \`direct_transfer\` and
\`batch_transfer\` commands go: v1 (\`requestTransfer\`, \`directTransfer\`, \`requestBatchTransfer\`) or
Transfers V2 (\`POST /payout/transfers\`, \`POST /payout/transfers/batch\`). The other kinds do not change
(ADR 0019). The commands are the same, but a v2 account refuses some that a v1 account takes (the
table below); events carry \`providerApi\`.

1. Ask the provider to enable Transfers V2 on the account (else every v2 call answers 403
   \`apis_not_enabled\`, a configuration fault: payouts wait SUBMITTING, nothing is paid).
2. Set the generation: \`PROVIDER_API_GENERATION=v2\` for the primary account, or \`"api": "v2"\` on its
   entry of \`PROVIDER_ACCOUNTS\` (and \`"apiVersion"\` if it needs another \`x-api-version\` than
   \`PROVIDER_API_VERSION\`).
3. Restart (a rolling restart is fine). Payouts and batches already accepted keep the generation
   they were accepted on (column \`provider_api\`): each is re-sent and checked on its own API, so
   payouts in flight at the switch are safe. Only commands accepted after the restart go to v2.
4. Webhooks: switch the dashboard to v2 and point it at \`/webhooks/v2/<accountId>\`. A signed v2
   webhook settles a payout directly; a v1 one only asks for a status check (ADR 0013). Both routes
   stay open, so webhooks sent before the switch still arrive. Once the dashboard sends only v2, pin
   it: \`PROVIDER_WEBHOOK_VERSION=v2\` (primary) or \`"webhookVersion": "v2"\` (other accounts). The v1
   route then answers 404 for the account (counted as \`result="other_version"\`), which closes the
   route whose signature does not bind values to their names. Nothing is lost: webhooks are hints,
   and the reconciler asks the provider on its schedule.
5. Going back to v1 is the same steps in reverse; v2 payouts in flight are still checked on v2.

### What a v2 account refuses that a v1 account takes

The command contract is the v1 interface's; Transfers V2 is stricter where upstream can see it. Each
difference is a rule of the connector (\`GENERATION_RULES\`, libs/provider-client/src/generation-rules.ts),
checked at intake against the account's generation now: a command one refuses is dead-lettered
(\`dlq-reason: api_generation_rule\`, \`dlq-detail\` naming the rule and the field, never the value),
nothing is stored or sent, and it can be sent again corrected under the same id. Check your producers
against this table before step 2. Card, validated UPI, internal transfer and self withdrawal use the
same endpoints on both generations and have no rule. A retry of a command accepted on v1 before the
switch is checked against v2 too: it is dead-lettered if a rule refuses it (the payout itself goes on, on
v1), else answered with its current state as before.

| rule | commands | field | on v2 it takes | source |
| --- | --- | --- | --- | --- |
${GENERATION_RULES.v2.map((r) => `| \`${r.name}\` | ${r.commands.map((c) => `\`${c.slice('payout.'.length)}\``).join(', ')} | ${r.field} | ${r.takes} | ${r.source} |`).join('\n')}

`;

const HOLD_FOR_FUNDS = `## Holding payouts for funds

For an account in \`FUNDS_HOLD\`, a payout (a batch, whole) that does not fit the provider's available
balance as last read, less what was sent and not yet in that reading and the account's threshold, waits in
\`HELD_FOR_FUNDS\` instead of being sent to bounce (ADR 0027; operators' side: docs/OPERATIONS.md, "Hold for
funds"). To turn it on for an account:

1. Keep the balance reader on: \`BALANCE_READ_INTERVAL_MS\` above 0 (default 60 s; the service refuses to start
   with \`FUNDS_HOLD\` set and the reader off). The interval is the longest a held payout waits for funds that
   are already there; the provider's \`CREDIT_CONFIRMATION\` and \`LOW_BALANCE_ALERT\` webhooks make the account's
   next reading immediate, so point the provider's webhooks at the service.
2. Add \`{"accountId": ..., "threshold": ..., "maxHold": ...}\` to \`FUNDS_HOLD\`. The threshold is money kept
   back and never spent: set it to cover what leaves the account outside this service (fees, payouts made in
   the provider's dashboard). The maximum hold (default \`FUNDS_MAX_HOLD\`, 96 h) ends a payout \`REJECTED\`,
   reason \`funds_hold_expired\` (never sent).
3. Restart (a rolling restart is fine). Nothing of the account is sent until its first reading
   (\`no_balance_reading\`). A payout already in flight at the switch was sent without the hold's bookkeeping
   and is not counted against the room until the next reading; a threshold of one payout's size covers it.

To turn it off, remove the account and restart: its held payouts are sent as any other, and the provider
refuses what the balance does not cover. What the check costs: docs/BENCHMARKS.md, "Session 19".

`;

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
        title: 'Operator sign-in (OpenID Connect, automation tokens; ADR 0021)',
        source: 'libs/operations/src/sign-in/sign-in.config.ts',
        section: signInConfig,
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
    MOVE_TO_V2 + HOLD_FOR_FUNDS + PRODUCTION + TESTS,
  );
}
