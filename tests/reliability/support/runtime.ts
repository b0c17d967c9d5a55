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
