/** Architecture rules, checked by `npm run arch` (part of `npm test`). */
module.exports = {
  forbidden: [
    {
      name: 'apps-are-not-imported-by-apps',
      comment: 'Apps are composition roots; one app never imports another.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'production-code-never-imports-tests',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'contracts-import-nothing-of-ours',
      comment: 'The contracts library is a leaf: other code depends on it, it depends on no lib.',
      severity: 'error',
      from: { path: '^libs/contracts/' },
      to: { path: '^(libs/(?!contracts/)|apps/)' },
    },
    {
      name: 'pipeline-folders-import-only-shared',
      comment:
        'The pipeline reads one way: intake, executor, reconciler, batches and queries import the shared ' +
        'folder (and other libs), never one another.',
      severity: 'error',
      from: { path: '^libs/pipeline/src/([^/]+)/' },
      to: { path: '^libs/pipeline/src/', pathNot: '^libs/pipeline/src/($1|shared)/' },
    },
    {
      name: 'pipeline-shared-imports-no-folder',
      comment: 'The shared folder is what the pipeline folders stand on: it imports none of them.',
      severity: 'error',
      from: { path: '^libs/pipeline/src/shared/' },
      to: { path: '^libs/pipeline/src/', pathNot: '^libs/pipeline/src/shared/' },
    },
    {
      name: 'pipeline-is-transport-free',
      comment:
        'Use cases take plain values; Kafka stays in libs/messaging and the apps (ports in shared/ports.ts).',
      severity: 'error',
      from: { path: '^libs/pipeline/' },
      to: { path: 'node_modules/kafkajs/' },
    },
    {
      name: 'ledger-imports-neither-pipeline-nor-outbox',
      comment: 'The ledger is below both: the outbox writer reaches it as a port (LedgerOutbox).',
      severity: 'error',
      from: { path: '^libs/ledger/' },
      to: { path: '^libs/(pipeline|outbox)/' },
    },
    {
      name: 'only-the-ledger-moves-state',
      comment:
        'ADR 0003 (amendment): the statements that change a payout or batch state (*-moves.repository.ts) ' +
        "are the ledger steps' own; no code outside libs/ledger imports them, nor does its index export " +
        'them. Tests may, as fixtures.',
      severity: 'error',
      from: { pathNot: '^(test/|libs/ledger/src/(?!index\\.ts$))|\\.spec\\.ts$' },
      to: { path: '^libs/ledger/src/[^/]+-moves\\.repository\\.ts$' },
    },
    {
      name: 'libs-are-framework-free',
      comment:
        'ADR 0009: libs are plain TypeScript; only these adapters to Nest may import @nestjs/* or rxjs.',
      severity: 'error',
      from: {
        path: '^libs/',
        pathNot:
          '^libs/(health/|observability/src/(logger|metrics\\.controller)\\.ts$|messaging/src/kafka-batch\\.transport\\.ts$)',
      },
      to: { path: 'node_modules/(@nestjs/|rxjs/)' },
    },
    {
      name: 'opentelemetry-only-in-observability',
      comment:
        'Libs and apps trace through the Tracing port of libs/observability (ADR 0015); only it imports the SDK.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '^libs/observability/' },
      to: { path: 'node_modules/@opentelemetry/' },
    },
    {
      name: 'provider-client-has-one-door',
      comment:
        'Issue 31: the provider stands behind one port. Outside libs/provider-client, code imports its index ' +
        '(#provider-client: the port, its factory, plain types) and nothing else of it. Tests, specs and the ' +
        'scripts that check the lib use its test door (#provider-client/testing) instead of reaching in.',
      severity: 'error',
      from: { pathNot: '^libs/provider-client/' },
      to: {
        path: '^libs/provider-client/src/',
        pathNot: '^libs/provider-client/src/(index|testing)\\.ts$',
      },
    },
    {
      name: 'provider-client-test-door-is-for-tests',
      comment:
        'The test door (#provider-client/testing: the raw client, adapters, outcome tables) is for test/, ' +
        '*.spec.ts and scripts/ only: production code sees the port.',
      severity: 'error',
      from: { path: '^(apps|libs|migrations)/', pathNot: '^libs/provider-client/|\\.spec\\.ts$' },
      to: { path: '^libs/provider-client/src/testing\\.ts$' },
    },
    {
      name: 'provider-client-connector-on-top',
      comment:
        'Issue 31: connector/ stands at the top of libs/provider-client, over the client it calls; nothing ' +
        'below it (endpoints, adapters, core, the client, webhooks, rate budget) imports it.',
      severity: 'error',
      from: {
        path: '^libs/provider-client/src/',
        pathNot: '^libs/provider-client/src/(connector/|index\\.ts$|testing\\.ts$)|\\.spec\\.ts$',
      },
      to: { path: '^libs/provider-client/src/connector/' },
    },
    {
      name: 'ledger-below-provider-client',
      comment:
        'Issue 31: the ledger is below the provider client. Its rate slot repository serves the client port ' +
        'structurally; the composition root hands it over.',
      severity: 'error',
      from: { path: '^libs/ledger/' },
      to: { path: '^libs/provider-client/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: { conditionNames: ['types', 'import', 'require', 'default'] },
  },
};
