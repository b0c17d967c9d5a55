/*
 * `npm run test:reliability [-- --full]` (issue 11): runs the reliability checks
 * (tests/reliability/**\/*.reliability.ts) in the short profile (CI) or the full one, then
 * writes bench-results/reliability.json with a `summary` of the issue's figures, each measured
 * by at least one check, and bench-results/security.json (issue 19) with a `summary` of
 * oracle_queries, oracle_leaks and regressions (each summed over the checks that record it).
 * Exits non-zero when a check failed, the permission oracle found a leak, or (in a whole run,
 * without vitest filters) a figure of either report went unmeasured.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  finishReport,
  loadAverage,
  machineEnvironment,
  parseOptions,
  REPO_ROOT,
  stepLogger,
} from '../perf/harness.ts';

import {
  SECURITY_KEYS,
  SUMMARY_KEYS,
  SUMMED,
  type FigureRecord,
  type SecurityFigures,
  type SummaryFigures,
} from './figures.ts';

const HELP = `npm run test:reliability [-- --full] [-- <vitest filters>]
  --full   the full profile (60 s load per operation, 5-minute soak); default: the short one
`;

const { positionals, values } = (() => {
  const args = process.argv.slice(2);
  const filters = args.filter((arg) => !arg.startsWith('--'));
  return {
    positionals: filters,
    values: parseOptions(
      args.filter((arg) => arg.startsWith('--')),
      HELP,
      { full: { type: 'boolean' } },
    ),
  };
})();

const profile = values.full ? 'full' : 'short';
const logger = stepLogger();
const loadAtStart = loadAverage();
const dir = mkdtempSync(path.join(tmpdir(), 'reliability-'));
const figuresFile = path.join(dir, 'figures.jsonl');
logger.step(`reliability checks, ${profile} profile`);

const vitest = spawnSync(
  'npx',
  ['vitest', 'run', '-c', 'tests/reliability/vitest.config.ts', ...positionals],
  {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      RELIABILITY_PROFILE: profile,
      RELIABILITY_FIGURES_FILE: figuresFile,
    },
  },
);

let records: FigureRecord[] = [];
try {
  records = readFileSync(figuresFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FigureRecord);
} catch {
  // No check recorded anything: every figure is unmeasured below.
}
rmSync(dir, { recursive: true, force: true });

const summary: Partial<Record<keyof SummaryFigures, number | null>> = {};
for (const key of SUMMARY_KEYS) {
  const measured = records
    .map((record) => record.figures[key])
    .filter((value): value is number => typeof value === 'number');
  summary[key] =
    measured.length === 0
      ? null
      : SUMMED.has(key)
        ? measured.reduce((sum, value) => sum + value, 0)
        : Math.max(...measured);
}
const unmeasured = SUMMARY_KEYS.filter((key) => summary[key] === null);

// Speed goals (the load checks' p99 against a multiple of the idle p99) are figures beside their
// reference, not pass or fail: printed as a table and kept in the report.
const goals = records.flatMap((record) =>
  record.goal ? [{ check: record.check, ...record.goal }] : [],
);
if (goals.length > 0) {
  logger.log('');
  logger.log('speed goals (measured beside the reference; not asserted):');
  for (const goal of goals) {
    logger.log(
      `  ${goal.check.padEnd(16)} ${goal.figure} ${String(goal.measured).padStart(7)}  vs  ${String(goal.reference).padStart(7)}  ${goal.reference_label}  ${goal.met ? 'met' : 'NOT met'}`,
    );
  }
}

const report = {
  summary,
  profile,
  goals,
  checks: records,
  environment: machineEnvironment(loadAtStart, { memory: true }),
};
await finishReport(logger, 'bench-results/reliability.json', report);

// Issue 19: the security figures, every one a sum over the checks that measured it.
const securitySummary: Partial<Record<keyof SecurityFigures, number | null>> = {};
for (const key of SECURITY_KEYS) {
  const measured = records
    .map((record) => record.figures[key])
    .filter((value): value is number => typeof value === 'number');
  securitySummary[key] =
    measured.length === 0 ? null : measured.reduce((sum, value) => sum + value, 0);
}
const securityUnmeasured = SECURITY_KEYS.filter((key) => securitySummary[key] === null);
const securityReport = {
  summary: securitySummary,
  profile,
  checks: records.filter((record) => SECURITY_KEYS.some((key) => key in record.figures)),
  environment: machineEnvironment(loadAtStart, { memory: true }),
};
await finishReport(logger, 'bench-results/security.json', securityReport);

let failed = false;
if (positionals.length === 0 && unmeasured.length > 0) {
  process.stderr.write(`reliability: not measured: ${unmeasured.join(', ')}\n`);
  failed = true;
}
if (positionals.length === 0 && securityUnmeasured.length > 0) {
  process.stderr.write(`security: not measured: ${securityUnmeasured.join(', ')}\n`);
  failed = true;
}
if ((securitySummary.oracle_leaks ?? 0) > 0) {
  process.stderr.write(
    `security: the permission oracle found ${securitySummary.oracle_leaks} leak(s); see bench-results/security.json\n`,
  );
  failed = true;
}
process.exit(failed ? 1 : (vitest.status ?? 1));
