import { readFile } from 'node:fs/promises';

import type pg from 'pg';

/*
 * CPU time of the PostgreSQL backends serving the benchmark database, read from /proc (the
 * server on this machine, Linux). Each reading maps a backend's pid to its user + system time;
 * the difference of two readings is what the database spent between them (a backend that
 * started in between counts whole; one that ended in between is lost, which the pools' long
 * idle timeout makes rare). Null where /proc cannot show the backends (another host, PGlite).
 */

/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on Linux). */
const CLOCK_TICKS = 100;

export type BackendReading = Map<number, number> | null;

async function cpuMsOf(pid: number): Promise<number | null> {
  try {
    if ((await readFile(`/proc/${pid}/comm`, 'utf8')).trim() !== 'postgres') return null;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

export async function readBackends(pool: pg.Pool, database: string): Promise<BackendReading> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1',
    [database],
  );
  const reading = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = await cpuMsOf(pid);
    if (ms !== null) reading.set(pid, ms);
  }
  return reading.size > 0 ? reading : null;
}

/** CPU ms the backends spent from `before` to `after`; null when either could not be read. */
export function backendCpuMs(before: BackendReading, after: BackendReading): number | null {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return Math.round(total);
}
