import { defineConfig } from 'vitest/config';

import { catalogPreloads } from './web/vite/catalog-preloads.ts';

export default defineConfig({
  // The portal's root module imports the server build's map of catalog chunks (empty here).
  plugins: [catalogPreloads()],
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '.data/**'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Integration suites start databases and processes; they need more than 5 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A test must never silently pass because it was marked .only.
    allowOnly: !process.env['CI'],
  },
});
