// @ts-check
import js from '@eslint/js';
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
      'bench-results/**',
      '**/__generated__/**',
      'web/app/graphql/generated/**',
      '**/.react-router/**',
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
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
