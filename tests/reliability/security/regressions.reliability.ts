import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, it } from 'vitest';

import { REPO_ROOT } from '../../perf/harness.ts';
import { recordFigures } from '../figures.ts';

/*
 * Issue 19's attacks, each pinned by a regression test where its fix lives (the engine, the auth
 * service, the actions, the web server, the mini-app, the bot's sandbox); every such test is
 * named "security regression: …". This check runs them all once more, here, and records how
 * many passed as `regressions` in bench-results/security.json: the count only ever holds tests
 * that ran and passed, and any failure fails the reliability run.
 */

const MARK = 'security regression';

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{
    name: string;
    assertionResults: Array<{ fullName: string; status: string }>;
  }>;
}

it('every security regression test passes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'security-regressions-'));
  const output = path.join(dir, 'report.json');
  try {
    const run = spawnSync(
      'npx',
      ['vitest', 'run', '-t', MARK, '--reporter=json', `--outputFile=${output}`],
      { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: process.env },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as JsonReport;
    const results = report.testResults.flatMap((file) =>
      file.assertionResults
        .filter((test) => test.fullName.includes(MARK))
        .map((test) => ({ file: path.relative(REPO_ROOT, file.name), ...test })),
    );
    const failed = results.filter((test) => test.status === 'failed');
    const passed = results.filter((test) => test.status === 'passed');
    process.stdout.write(
      `security regressions: ${passed.length} passed in ${new Set(passed.map((t) => t.file)).size} files, ${failed.length} failed\n`,
    );
    recordFigures({
      check: 'security-regressions',
      figures: { regressions: passed.length },
      details: { files: [...new Set(results.map((test) => test.file))].sort() },
    });
    expect(failed.map((test) => `${test.file}: ${test.fullName}`)).toEqual([]);
    expect(run.status).toBe(0);
    expect(passed.length).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
