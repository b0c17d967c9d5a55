import { appendFileSync } from 'node:fs';

/*
 * The figures a reliability check measured, handed to tests/reliability/run.ts through a file
 * (vitest runs each file in a worker of its own). Each call appends one JSON line; run.ts sums
 * the counts and takes the worst of the rest for bench-results/reliability.json's summary.
 */

/** The summary the issue names; every check contributes the figures it measures. */
export interface SummaryFigures {
  /** Requests that failed under sustained load (sum). */
  load_errors: number;
  /** 5xx answers (and crashes) to hostile input (sum). */
  fuzz_5xx: number;
  /** Committed orders missing after a fault (sum). */
  lost_orders: number;
  /** Orders made twice, events acted on twice, withdrawals paid twice (sum). */
  duplicate_actions: number;
  /** Seconds from the database's return to the services answering again (worst). */
  recovery_seconds: number;
  /** A service's RSS growth over the soak, in percent (worst). */
  memory_growth_pct: number;
}

export const SUMMARY_KEYS = [
  'load_errors',
  'fuzz_5xx',
  'lost_orders',
  'duplicate_actions',
  'recovery_seconds',
  'memory_growth_pct',
] as const satisfies ReadonlyArray<keyof SummaryFigures>;

/** Figures that add up across checks; the others take the worst (largest) value. */
export const SUMMED: ReadonlySet<keyof SummaryFigures> = new Set([
  'load_errors',
  'fuzz_5xx',
  'lost_orders',
  'duplicate_actions',
]);

/**
 * The security report's summary (issue 19, bench-results/security.json): every figure adds up
 * across the checks that measure it.
 */
export interface SecurityFigures {
  /** Generated queries the permission oracle judged (tests/reliability/security/permission-oracle). */
  oracle_queries: number;
  /** Answers that told a role something its permission hides (must be 0). */
  oracle_leaks: number;
  /** Regression tests of the attacks found (tests/reliability/security, the lead's attack checks). */
  regressions: number;
}

export const SECURITY_KEYS = [
  'oracle_queries',
  'oracle_leaks',
  'regressions',
] as const satisfies ReadonlyArray<keyof SecurityFigures>;

/** A speed goal a check measured: printed beside its reference, not asserted. */
export interface GoalFigure {
  figure: string;
  measured: number;
  reference: number;
  /** How the reference was set (`2x idle p99 (7.4 ms)`). */
  reference_label: string;
  met: boolean;
}

export interface FigureRecord {
  check: string;
  /** Reliability figures (reliability.json), security figures (security.json), or both. */
  figures: Partial<SummaryFigures & SecurityFigures>;
  goal?: GoalFigure;
  /** Whatever else the check measured (latencies, rates, counts), for the report. */
  details?: Record<string, unknown>;
}

/** Records a check's figures; outside run.ts (a file run alone) it only prints them. */
export function recordFigures(record: FigureRecord): void {
  const file = process.env['RELIABILITY_FIGURES_FILE'];
  const line = JSON.stringify(record);
  if (file) appendFileSync(file, `${line}\n`);
  else process.stdout.write(`[reliability] ${line}\n`);
}
