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
