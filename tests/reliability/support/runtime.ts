import { existsSync, readdirSync, readFileSync } from 'node:fs';

/*
 * Where a latency tail comes from (issue 24): each service's event-loop delay and garbage
 * collection over a window, read from its /metrics (prom-client's default metrics, which
 * loopback callers may read without a token). The event-loop histogram restarts at every
 * scrape, so scraping at the start of the window and again at its end gives the window's own
 * figures; the GC figures are counters, taken as differences.
 */

export interface RuntimeFigures {
  /** p99 and max delay of the event loop beyond its 10 ms sampling timer over the window, ms. */
  event_loop_p99_ms: number;
  event_loop_max_ms: number;
  /** Time spent in garbage collection over the window, ms, and major collections. */
  gc_ms: number;
  gc_major: number;
}

type Sample = Map<string, number>;

async function scrape(url: string): Promise<Sample> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sample: Sample = new Map();
  for (const line of text.split('\n')) {
    const match =
      /^(nodejs_eventloop_lag_(?:p99|max)_seconds|nodejs_gc_duration_seconds_(?:sum|count))(\{[^}]*\})? (\S+)$/.exec(
        line,
      );
    if (!match) continue;
    const kind = /kind="(\w+)"/.exec(match[2] ?? '')?.[1];
    const key = kind ? `${match[1]}:${kind}` : match[1]!;
    sample.set(key, (sample.get(key) ?? 0) + Number(match[3]));
  }
  return sample;
}

const ms = (seconds: number) => Math.round(seconds * 10_000) / 10;
/** prom-client samples the loop with a 10 ms timer; a delay is what comes on top of it. */
const TIMER_S = 0.01;
const delayMs = (seconds: number | undefined) => ms(Math.max(0, (seconds ?? TIMER_S) - TIMER_S));

function gcSeconds(sample: Sample): number {
  let total = 0;
  for (const [key, value] of sample)
    if (key.startsWith('nodejs_gc_duration_seconds_sum')) total += value;
  return total;
}

/** Starts a window on each service; `finish` ends it and returns each one's figures. */
export async function runtimeWindow(
  services: Record<string, string>,
): Promise<{ finish(): Promise<Record<string, RuntimeFigures>> }> {
  const entries = Object.entries(services);
  const before = await Promise.all(entries.map(([, url]) => scrape(url)));
  return {
    async finish() {
      const after = await Promise.all(entries.map(([, url]) => scrape(url)));
      return Object.fromEntries(
        entries.map(([name], i) => {
          const start = before[i]!;
          const end = after[i]!;
          const majors = (sample: Sample) =>
            sample.get('nodejs_gc_duration_seconds_count:major') ?? 0;
          return [
            name,
            {
              event_loop_p99_ms: delayMs(end.get('nodejs_eventloop_lag_p99_seconds')),
              event_loop_max_ms: delayMs(end.get('nodejs_eventloop_lag_max_seconds')),
              gc_ms: ms(gcSeconds(end) - gcSeconds(start)),
              gc_major: majors(end) - majors(start),
            },
          ];
        }),
      );
    },
  };
}

/*
 * Who had the machine's CPU over a window, from /proc (Linux): each named process (all its
 * threads, so a service's GC helpers count), the database server's processes, and everything
 * else. A load check at 80% of capacity means little if another program took a core meanwhile:
 * on the machine this was written on, the environment's own servers (a message broker among
 * them) took up to three quarters of a core for half a second, and the services' tail followed.
 */

/** Percent of one core over the window. `machine` is all CPUs together (200 = two busy cores). */
export type CpuFigures = Record<string, number> & { machine: number; other: number };

/** Jiffies used by `pid` (user + system), or undefined once it is gone. */
function processTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Pids of the processes whose command is `command` (e.g. PostgreSQL's `postgres`). */
function pidsOf(command: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}

/** Busy jiffies of all CPUs together (/proc/stat's first line, less idle and iowait). */
function machineBusyTicks(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = values.slice(0, 8).map(Number);
  return ticks.reduce((a, b) => a + b, 0) - ticks[3]! - ticks[4]!;
}

/**
 * Starts a CPU window over `processes` (name -> pid; a name without a pid, such as a database
 * server, is found by `commands[name]`, its process name). `finish` ends it. Undefined where
 * /proc is not Linux's.
 */
export function cpuWindow(
  processes: Record<string, number | undefined>,
  commands: Record<string, string> = {},
): { finish(): CpuFigures } | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const pidsFor = (name: string, pid: number | undefined) =>
    pid !== undefined ? [pid] : commands[name] ? pidsOf(commands[name]) : [];
  const groups = Object.entries(processes).map(
    ([name, pid]) => [name, pidsFor(name, pid)] as const,
  );
  const sum = (pids: readonly number[]) => pids.reduce((a, pid) => a + (processTicks(pid) ?? 0), 0);
  const before = groups.map(([, pids]) => sum(pids));
  const machineBefore = machineBusyTicks();
  const started = performance.now();
  return {
    finish() {
      const seconds = (performance.now() - started) / 1000;
      // A database server starts processes as it goes (a backend per new connection): those
      // that began within the window count from zero.
      for (const [index, [name, pids]] of groups.entries()) {
        if (processes[name] !== undefined || !commands[name]) continue;
        const fresh = pidsOf(commands[name]).filter((pid) => !pids.includes(pid));
        groups[index] = [name, [...pids, ...fresh]];
      }
      // Jiffies are 1/100 s on Linux (USER_HZ), so jiffies per second is a percent of a core.
      const percent = (jiffies: number) => Math.round(jiffies / seconds);
      const used = groups.map(([, pids], i) => Math.max(0, sum(pids) - before[i]!));
      const busy = machineBusyTicks() - machineBefore;
      const named = used.reduce((a, b) => a + b, 0);
      return {
        ...Object.fromEntries(groups.map(([name], i) => [name, percent(used[i]!)])),
        other: percent(Math.max(0, busy - named)),
        machine: percent(busy),
      };
    },
  };
}
