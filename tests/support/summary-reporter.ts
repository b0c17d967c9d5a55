import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends every run with the plain line `N passed, N failed, N skipped`, which CI reads to tell
 * a run that tested something from one that ran nothing.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
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
