import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/*
 * What every benchmark harness here shares: progress lines, the command line, the machine's
 * description in the report, writing the report, and the exit status (0 whenever the benchmark
 * ran, whatever it found; 1 when the harness failed).
 */

/** The repository's root; reports and builds are placed relative to it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchLog {
  /** A line on stdout. */
  log: (line: string) => void;
  /** A progress line, after the seconds since the logger was made: `[  12s] line`. */
  step: (line: string) => void;
}

export function stepLogger(): BenchLog {
  const started = performance.now();
  const log = (line: string) => void process.stdout.write(`${line}\n`);
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s`;
  return { log, step: (line) => log(`[${elapsed()}] ${line}`) };
}

/**
 * Runs a bench's `main` and exits with the status it returns; when it throws, prints
 * `<name> failed: <stack>` on stderr and exits 1.
 */
export function runBench(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}

/**
 * Runs `body`, then `stop`, also when `body` throws. SIGINT or SIGTERM meanwhile runs `stop` and
 * exits 1, so an interrupted bench leaves no servers behind.
 */
export async function runThenStop<T>(
  stop: () => Promise<void>,
  body: () => Promise<T>,
): Promise<T> {
  const interrupted = () => void stop().finally(() => process.exit(1));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    return await body();
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await stop();
  }
}

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** The values `parseArgs` gives for `options`. */
export type OptionValues<T extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T }>
>['values'];

/** `argv` parsed with `options` plus `--help`, which prints `help` and exits 0. */
export function parseOptions<T extends OptionsConfig>(
  argv: string[],
  help: string,
  options: T,
): OptionValues<T> {
  const all: OptionsConfig = { ...options, help: { type: 'boolean' } };
  const { values } = parseArgs({ args: argv, options: all });
  if (values['help']) {
    process.stdout.write(help);
    process.exit(0);
  }
  return values as OptionValues<T>;
}

/** A numeric `--name` option, `fallback` when absent; refuses anything below `min`. */
export function num(value: string | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min)
    throw new Error(`--${name} must be a number >= ${min}`);
  return parsed;
}

/** An integer option of at least `min`, or `fallback` when absent. */
export function integer(
  value: string | undefined,
  fallback: number,
  name: string,
  min: number,
): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new Error(`--${name} must be an integer >= ${min}`);
  return parsed;
}

/** `--db`: auto (the PostgreSQL server when reachable, else PGlite), postgres or pglite. */
export function databaseOption(value: string | undefined): 'auto' | 'postgres' | 'pglite' {
  const database = value ?? 'auto';
  if (database !== 'auto' && database !== 'postgres' && database !== 'pglite')
    throw new Error('--db must be auto, postgres or pglite');
  return database;
}

/** The 1-, 5- and 15-minute load averages, to two decimals. */
export const loadAverage = (): number[] =>
  os.loadavg().map((value) => Math.round(value * 100) / 100);

/**
 * The first fields of a report's `environment`: Node, the machine (with its memory when asked)
 * and its load averages at the start and now. Other work on the machine skews absolute figures
 * (ratios hold better); Lighthouse's simulation scales the CPU time it observes, so it inflates
 * TBT there.
 */
export function machineEnvironment(loadAtStart: number[], { memory = false } = {}) {
  const busy = busyAtStart(loadAtStart);
  return {
    node: process.version,
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? null,
    ...(memory ? { memory_gb: Math.round(os.totalmem() / 1024 ** 3) } : {}),
    load_average_start: loadAtStart,
    load_average_end: loadAverage(),
    /** Set when other work kept the machine busy as the run began: its figures are noise-prone. */
    busy_at_start: busy !== undefined,
    ...(busy !== undefined ? { busy_note: busy } : {}),
  };
}

/**
 * Why a run's figures are suspect when the machine was already busy as it started (the
 * 1-minute load average above half the CPUs; the run's own work shows in the later figure, so
 * only the start tells of other work), else undefined.
 */
export function busyAtStart(loadAtStart: number[]): string | undefined {
  const cpus = os.cpus().length;
  const oneMinute = loadAtStart[0] ?? 0;
  if (oneMinute <= cpus / 2) return undefined;
  return `the machine was busy as the run started (1-minute load ${oneMinute} on ${cpus} CPUs): other work skews these figures; re-run on a quiet machine before comparing them`;
}

/** Writes the report as JSON to `output` (relative to the repository root) and says where. */
export async function writeReport(
  step: BenchLog['step'],
  output: string,
  report: unknown,
): Promise<void> {
  const target = path.resolve(REPO_ROOT, output);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, `${JSON.stringify(report, null, 2)}\n`);
  step(`wrote ${path.relative(REPO_ROOT, target)}`);
}

/** The end of a bench's printout: a blank line, the report's `summary` on one line; then writes it. */
export async function finishReport(
  { log, step }: BenchLog,
  output: string,
  report: { summary: unknown },
): Promise<void> {
  log('');
  const environment = (report as { environment?: { busy_note?: unknown } }).environment;
  if (typeof environment?.busy_note === 'string') log(`WARNING: ${environment.busy_note}`);
  log(`summary: ${JSON.stringify(report.summary)}`);
  await writeReport(step, output, report);
}
