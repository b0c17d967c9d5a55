import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * What a run prints and the JSON it leaves in bench-results/conformance.json.
 *
 * Printed: one line per failed case (its first difference, and how many more), one summary
 * line per group, then `K skipped` and, last, exactly `N passed, M failed`.
 */

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  group: string;
  file: string;
  status: CaseStatus;
  /** Why it was skipped, or the failure that stopped it (engine, database, timeout). */
  reason?: string;
  failures: string[];
  drift: string[];
  notes: string[];
  durationMs: number;
}

export interface GroupResult {
  name: string;
  database?: string;
  /** A failure of the whole group (database, setup.sql). */
  error?: string;
  durationMs: number;
  cases: CaseResult[];
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
  drift: number;
  passRate: number | null;
}

export interface RunReport {
  generatedAt: string;
  corpusDir: string;
  database: string;
  engine: { available: boolean; reason?: string };
  options: Record<string, unknown>;
  totals: Totals;
  bar: number;
  meetsBar: boolean;
  groups: GroupResult[];
  uncaughtErrors: string[];
}

export function write(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function oneLine(text: string, max = 220): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function caseLine(result: CaseResult): string {
  const first = result.reason ?? result.failures[0] ?? 'failed';
  const more = result.failures.length > 1 ? ` (+${result.failures.length - 1} more)` : '';
  return `FAIL ${result.group}/${result.file.replace(/^cases\//, '')}: ${oneLine(first)}${more}`;
}

export function driftLines(result: CaseResult): string[] {
  return result.drift.map(
    (drift) =>
      `  drift ${result.group}/${result.file.replace(/^cases\//, '')}: ${oneLine(drift, 300)}`,
  );
}

export function countCases(cases: CaseResult[]): Totals {
  const passed = cases.filter((result) => result.status === 'passed').length;
  const failed = cases.filter((result) => result.status === 'failed').length;
  const skipped = cases.filter((result) => result.status === 'skipped').length;
  const drift = cases.filter((result) => result.drift.length > 0).length;
  return {
    passed,
    failed,
    skipped,
    drift,
    passRate: passed + failed > 0 ? passed / (passed + failed) : null,
  };
}

export function groupLine(group: GroupResult): string {
  const totals = countCases(group.cases);
  const parts = [`${totals.passed} passed`, `${totals.failed} failed`];
  if (totals.skipped) parts.push(`${totals.skipped} skipped`);
  if (totals.drift) parts.push(`${totals.drift} with message drift`);
  const seconds = (group.durationMs / 1000).toFixed(1);
  return `  ${group.name.padEnd(28)} ${parts.join(', ')} (${seconds} s)${group.error ? ` - ${oneLine(group.error, 160)}` : ''}`;
}

export async function writeReport(file: string, report: RunReport): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}
