// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '.data/**',
      '**/dist/**',
      '**/build/**',
      '**/.e2e-build-*/**',
      '**/.bench-build-*/**',
      'bench-results/**',
      // What the test runs leave behind (gitignored): Playwright's report bundles its own scripts.
      'playwright-report/**',
      'test-results/**',
      '**/__generated__/**',
      'web/app/graphql/generated/**',
      '**/.react-router/**',
      // The fences' fixture trees break the rules on purpose; their tests lint them.
      'tests/fixtures/architecture/**',
      // Separately installed packages (their own lockfiles), run only by bench:engine.
      'tests/perf/postgraphile/**',
      'tests/perf/postgraphile5/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'error',
      // Configuration is parsed once per service, in its env module (see STYLE.md).
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through the service env module.',
        },
      ],
    },
  },
  {
    // Where configuration is parsed or handed on to child processes, and test harnesses.
    files: [
      '**/env.ts',
      '**/env/index.ts',
      '**/cli/*.ts',
      'scripts/start.ts',
      'scripts/install/*.ts',
      'tests/**',
      '**/*.test.ts',
      'vitest.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // React Router loaders throw responses (redirect, data with a status) by design.
    files: ['web/app/**'],
    rules: {
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'lib', name: 'Response' },
            { from: 'package', package: 'react-router', name: 'DataWithResponseInit' },
          ],
        },
      ],
    },
  },
  {
    // A module does one thing; past 400 lines of code it does several (decision 028). Blank
    // lines and comments do not count: documentation is never a reason to split a module.
    files: ['**/*.{ts,tsx}'],
    ignores: [
      // Page content: prose, as long as the page is.
      'web/app/content/pages/**',
      // Generated code (GraphQL types and documents).
      '**/generated/**',
      // Translation catalogs: text, split by screen (namespace), not by length.
      'shared/src/i18n/catalogs/**',
    ],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The rules of hooks where React runs. Only these two of the plugin's recommended set: the
    // others check code for the React Compiler, which this project does not use.
    files: ['client/src/**/*.{ts,tsx}', 'web/app/**/*.{ts,tsx}', 'miniapp/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
);
