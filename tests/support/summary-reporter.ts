import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Ends every run with the plain line `N passed, N failed, N skipped`, which CI reads to tell
 * a run that tested something from one that ran nothing. Unhandled errors are repeated just
 * above it, one line each with where they were thrown: CI keeps only the end of a long log,
 * and the default reporter prints them far above.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
  ): void {
    for (const error of unhandledErrors) {
      const frame = error.stacks?.[0];
      const where = frame ? ` at ${frame.file}:${frame.line}` : '';
      const message = `${error.name ?? 'Error'}: ${error.message}`
        .replace(/\s+/g, ' ')
        .slice(0, 300);
      process.stdout.write(`\nunhandled error: ${message}${where}`);
    }
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0)
        failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
