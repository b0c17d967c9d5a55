import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

/*
 * The reliability suite (issue 11, `npm run test:reliability`): load, faults, more than one
 * instance, hostile input, money invariants, backup and restore. Its files end in
 * `.reliability.ts`, so `npm test` does not run them; tests/reliability/run.ts runs this config
 * and gathers the figures they record into bench-results/reliability.json.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['tests/reliability/**/*.reliability.ts'],
    exclude: ['**/node_modules/**', '.data/**'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // One file at a time: load and fault checks measure the machine, and must not share it.
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 300_000,
    allowOnly: !process.env['CI'],
  },
});
