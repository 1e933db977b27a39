// Lint is part of `npm test`; warnings fail (`--max-warnings 0`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.run/**',
      'tools/kafka/libs/**',
      'coverage/**',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // The web console: plain ES modules run by the browser (type-checked from JSDoc by their own
    // tsconfig.json, DOM lib). Data reaches the page as text only: no HTML from strings.
    files: ['apps/payout-service/console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'sessionStorage',
          'fetch',
          'URL',
          'URLSearchParams',
          'FormData',
          'Blob',
          'setTimeout',
          'clearTimeout',
          'Node',
          'HTMLElement',
          'HTMLInputElement',
          'HTMLFormElement',
          'HTMLButtonElement',
          'HTMLDialogElement',
          'HTMLSelectElement',
          'Element',
          'Event',
          'SubmitEvent',
          'Response',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: {
      'no-restricted-properties': [
        'error',
        ...['innerHTML', 'outerHTML'].map((property) => ({
          property,
          message: 'build elements (dom.js h()); never HTML from strings',
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='insertAdjacentHTML']",
          message: 'never HTML from strings',
        },
        {
          selector: "CallExpression[callee.property.name='write'][callee.object.name='document']",
          message: 'never HTML from strings',
        },
      ],
    },
  },
  {
    // Tests and CLI entry points may print.
    files: ['test/**/*.ts', '**/*.spec.ts', 'scripts/**/*.ts', 'bench/**/*.ts', '**/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
