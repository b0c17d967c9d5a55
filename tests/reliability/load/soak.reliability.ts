import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recordFigures } from '../figures.ts';
import { byProfile, PROFILE } from '../profile.ts';
import { round1, runClosedLoop, runOpenLoop, type OpenLoopResult } from '../support/load.ts';
import {
  rssBytes,
  startStack,
  STACK_SERVICES,
  type ServiceName,
  type Stack,
} from '../support/stack.ts';

import {
  OPERATION_NAMES,
  prepareWorkload,
  type OperationName,
  type Workload,
} from './operations.ts';

/*
 * The soak (issue 11): the four operations of load/operations.ts together, for 60 s (short) or
 * 5 minutes (full), each at a constant arrival rate that is an eighth of its own capacity on
 * this machine (measured first, briefly), so that the mix keeps the machine about half busy.
 * A warm-up of the same mix, not measured, comes first, and lasts until every service's RSS has
 * settled (see WARMUP_MIN_S).
 *
 * Each service's resident memory (VmRSS of its node process) is sampled every second (short) or
 * three (full). The first 20% of the soak is left out; the average of the soak's last quarter
 * is compared with the average of the quarter after those 20% (or of the warm-up's last 10 s,
 * when that was higher: see below). The worst service's growth is `memory_growth_pct`, and must
 * stay under 10%. A service over it is soaked as long again, and must then not grow by 5% or
 * more from the end of the first run to the end of the second (a leak keeps growing; a one-time
 * step or a saw-tooth phase does not); `memory_growth_pct` is then that figure. No request may
 * fail meanwhile.
 *
 * Why the rates are a share of capacity rather than small fixed ones: a leak-free Node service's
 * RSS is a saw-tooth (V8 lets garbage pile up to a multiple of the live heap before a major
 * collection), whose period shrinks as the allocation rate grows. At a few dozen requests a
 * second it is a minute or more, longer than the compared windows, and which phase a window
 * caught decided the figure (swings of -25% to +19% were seen); at half the machine the period
 * is shorter. V8 also hands pages back some time after a collection (RSS drops by a third) and
 * takes them again as the heap refills; a window that caught such a drop would make the climb
 * back to the earlier level look like growth, hence the warm-up's level as the other baseline.
 * Nothing is forced (no --expose-gc).
 */

/** Each operation's arrival rate, as a share of its own capacity: four of them, half the machine. */
const CAPACITY_SHARE = 0.5 / OPERATION_NAMES.length;
/** Each open loop's cap on requests in flight (about a second of arrivals at these rates). */
const MAX_IN_FLIGHT = 64;
const CALIBRATE_S = 2;
/**
 * The warm-up runs the mix in steps of WARMUP_STEP_S, at least WARMUP_MIN_S and at most
 * WARMUP_MAX_S, until every service's RSS has stayed within STEADY_PCT over the last
 * STEADY_S (its heap has grown to its working size and been collected at least once).
 */
const WARMUP_MIN_S = byProfile({ short: 15, full: 30 });
const WARMUP_MAX_S = byProfile({ short: 40, full: 180 });
const WARMUP_STEP_S = 5;
const STEADY_S = 10;
const STEADY_PCT = 3;
const SOAK_S = byProfile({ short: 60, full: 300 });
const SAMPLE_EVERY_S = byProfile({ short: 1, full: 3 });
/** Shares of SOAK_S: left out at the start, and the length of each compared window. */
const SETTLE_SHARE = 0.2;
const WINDOW_SHARE = 0.25;
const GROWTH_LIMIT_PCT = 10;
/** Runs of SOAK_S at most: a growth over the limit is checked by a second (see below). */
const SOAK_ROUNDS_MAX = 2;
/**
 * The most a service may grow over that second run: a leak that showed 10% over most of the
 * first run keeps growing about as much again; a step or a phase adds nothing.
 */
const STILL_GROWING_LIMIT_PCT = 5;

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Least-squares slope of `ys` over `xs`. */
function slope(xs: number[], ys: number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

interface ServiceMemory {
  pid: number;
  /** The first window's average, or the end of the warm-up's when higher. */
  start_rss_mb: number;
  first_window_rss_mb: number;
  warmup_end_rss_mb: number;
  end_rss_mb: number;
  growth_pct: number;
  /** Least-squares trend over the samples after the settling share, in MB per minute. */
  trend_mb_per_min: number;
  peak_rss_mb: number;
  samples_mb: number[];
}

interface Sample {
  atS: number;
  rss: Record<ServiceName, number>;
}

/** The mixed workload: one open loop per operation, side by side, for `durationS`. */
async function runMix(
  workload: Workload,
  rates: Record<OperationName, number>,
  durationS: number,
  sequence: { next: number },
): Promise<Record<OperationName, OpenLoopResult>> {
  const first = sequence.next;
  sequence.next += 10_000_000;
  const results = await Promise.all(
    OPERATION_NAMES.map((name, index) =>
      runOpenLoop({
        rate: rates[name],
        durationS,
        maxInFlight: MAX_IN_FLIGHT,
        task: workload.tasks[name],
        // Sequences stay unique per operation (order keys) across the phases.
        firstSequence: first + index * 1_000_000,
      }),
    ),
  );
  const byName = {} as Record<OperationName, OpenLoopResult>;
  OPERATION_NAMES.forEach((name, index) => (byName[name] = results[index]!));
  return byName;
}

const errorsOf = (runs: Record<OperationName, OpenLoopResult>) =>
  Object.values(runs).reduce((sum, run) => sum + run.errors, 0);

describe(`soak, ${PROFILE} profile`, () => {
  let stack: Stack;
  let workload: Workload;
  const sequence = { next: 0 };

  beforeAll(async () => {
    stack = await startStack();
    workload = await prepareWorkload(stack, {
      users: 32,
      historyUsers: 8,
      ordersEach: 10,
      refreshChains: MAX_IN_FLIGHT,
      maxSockets: MAX_IN_FLIGHT,
    });
  });

  afterAll(async () => {
    workload?.close();
    await stack?.stop();
  });

  it(`keeps every service's memory within ${GROWTH_LIMIT_PCT}% under a steady mix`, async () => {
    const pids = {} as Record<ServiceName, number>;
    for (const name of STACK_SERVICES) pids[name] = stack.services[name].pid!;

    // Each operation's capacity, roughly: a closed loop of 16 after a short warm-up.
    const capacities = {} as Record<OperationName, number>;
    const rates = {} as Record<OperationName, number>;
    const calibration = sequence.next;
    sequence.next += 10_000_000;
    for (const [index, name] of OPERATION_NAMES.entries()) {
      const task = workload.tasks[name];
      // Sequences (order keys) stay unique: each phase takes a block of its own.
      const firstSequence = calibration + index * 1_000_000;
      await runClosedLoop({ concurrency: 4, durationS: 0.5, task, firstSequence });
      const run = await runClosedLoop({
        concurrency: 16,
        durationS: CALIBRATE_S,
        task,
        firstSequence: firstSequence + 500_000,
      });
      capacities[name] = run.okPerS;
      rates[name] = round1(Math.max(1, run.okPerS * CAPACITY_SHARE));
    }

    const sampling = (everyS: number) => {
      const samples: Sample[] = [];
      const started = performance.now();
      const sample = async () => {
        const rss = {} as Record<ServiceName, number>;
        for (const name of STACK_SERVICES) rss[name] = await rssBytes(pids[name]);
        samples.push({ atS: (performance.now() - started) / 1000, rss });
      };
      void sample();
      const timer = setInterval(() => void sample(), everyS * 1000);
      return {
        samples,
        async stop() {
          clearInterval(timer);
          await sample();
        },
      };
    };

    const warmupSampling = sampling(1);
    let warmupErrors = 0;
    const steady = () => {
      const { samples } = warmupSampling;
      const now = samples.at(-1)?.atS ?? 0;
      const recent = samples.filter((s) => s.atS >= now - STEADY_S);
      return STACK_SERVICES.every((name) => {
        const values = recent.map((s) => s.rss[name]);
        return (Math.max(...values) / Math.min(...values) - 1) * 100 <= STEADY_PCT;
      });
    };
    let warmupS = 0;
    while (warmupS < WARMUP_MAX_S && (warmupS < WARMUP_MIN_S || !steady())) {
      warmupErrors += errorsOf(await runMix(workload, rates, WARMUP_STEP_S, sequence));
      warmupS += WARMUP_STEP_S;
    }
    await warmupSampling.stop();

    const soakSampling = sampling(SAMPLE_EVERY_S);
    const { samples } = soakSampling;
    const warmupEnd = warmupSampling.samples.filter(
      (s) => s.atS >= (warmupSampling.samples.at(-1)?.atS ?? 0) - STEADY_S,
    );
    const inWindow = (fromS: number, toS: number) =>
      samples.filter((s) => s.atS >= fromS && s.atS <= toS);
    const firstWindow = () =>
      inWindow(SETTLE_SHARE * SOAK_S, (SETTLE_SHARE + WINDOW_SHARE) * SOAK_S);

    /** Each service's memory over the soak so far (`elapsedS`): its last window against the first. */
    const measure = (elapsedS: number) => {
      const first = firstWindow();
      const lastWindow = inWindow(elapsedS - WINDOW_SHARE * SOAK_S, Number.POSITIVE_INFINITY);
      const settled = inWindow(SETTLE_SHARE * SOAK_S, Number.POSITIVE_INFINITY);
      const services = {} as Record<ServiceName, ServiceMemory>;
      for (const name of STACK_SERVICES) {
        // The level to compare with is the first window's, or the level the service held at the
        // end of the warm-up when that was higher: V8 hands pages back after a collection and
        // takes them again as garbage piles up, and climbing back to a level already held is
        // not growth.
        const start = Math.max(
          mean(first.map((s) => s.rss[name])),
          mean(warmupEnd.map((s) => s.rss[name])),
        );
        const end = mean(lastWindow.map((s) => s.rss[name]));
        services[name] = {
          pid: pids[name],
          start_rss_mb: mb(start),
          first_window_rss_mb: mb(mean(first.map((s) => s.rss[name]))),
          warmup_end_rss_mb: mb(mean(warmupEnd.map((s) => s.rss[name]))),
          end_rss_mb: mb(end),
          growth_pct: round1(((end - start) / start) * 100),
          trend_mb_per_min: round1(
            mb(
              slope(
                settled.map((s) => s.atS),
                settled.map((s) => s.rss[name]),
              ) * 60,
            ),
          ),
          peak_rss_mb: mb(Math.max(...samples.map((s) => s.rss[name]))),
          samples_mb: samples.map((s) => mb(s.rss[name])),
        };
      }
      const worst = Math.max(...Object.values(services).map((service) => service.growth_pct));
      return { services, worst, lastWindow };
    };

    // A service over the limit after SOAK_S is soaked for another SOAK_S, and judged on whether
    // its memory is still growing: the last window of the longer run against the last window of
    // the first. Memory that leaks keeps growing with time; a saw-tooth phase that ended the
    // first run high, or a one-time step (V8 enlarging its heap: seen in CI, the engine flat at
    // 173 MB, up to 223 MB within 6 s, then flat for 90 s) does not.
    const verdicts: number[] = [];
    const runs: Array<Record<OperationName, OpenLoopResult>> = [];
    try {
      for (;;) {
        runs.push(await runMix(workload, rates, SOAK_S, sequence));
        const { worst: soFar } = measure(runs.length * SOAK_S);
        verdicts.push(soFar);
        if (soFar < GROWTH_LIMIT_PCT || runs.length === SOAK_ROUNDS_MAX) break;
      }
    } finally {
      await soakSampling.stop();
    }
    const soakS = runs.length * SOAK_S;
    const { services, worst, lastWindow } = measure(soakS);
    const soak = runs.at(-1)!;
    const extended = runs.length > 1;
    /** Growth from the first run's last window to the longer run's, per service (extended only). */
    const stillGrowing = {} as Record<ServiceName, number>;
    if (extended) {
      const firstRunEnd = inWindow(SOAK_S - WINDOW_SHARE * SOAK_S, SOAK_S);
      for (const name of STACK_SERVICES) {
        const before = mean(firstRunEnd.map((s) => s.rss[name]));
        const after = mean(lastWindow.map((s) => s.rss[name]));
        stillGrowing[name] = round1(((after - before) / before) * 100);
      }
    }
    /** The figure judged: the growth over the soak, or, when extended, over the extension. */
    const judged = extended ? Math.max(...Object.values(stillGrowing)) : worst;
    const limit = extended ? STILL_GROWING_LIMIT_PCT : GROWTH_LIMIT_PCT;

    const operations = {} as Record<OperationName, Record<string, unknown>>;
    for (const name of OPERATION_NAMES) {
      const run = soak[name];
      operations[name] = {
        capacity_rps: capacities[name],
        target_rps: run.targetRps,
        achieved_rps: run.okPerS,
        requests: run.requests,
        errors: run.errors,
        error_kinds: run.errorKinds,
        error_samples: run.errorSamples,
        p50_ms: run.p50Ms,
        p99_ms: run.p99Ms,
      };
    }
    const errors = runs.reduce((sum, run) => sum + errorsOf(run), 0);

    recordFigures({
      check: 'soak',
      figures: { memory_growth_pct: judged },
      details: {
        duration_s: soakS,
        // The worst growth over the soak after each SOAK_S (a second figure: it was extended),
        // the overall worst, and each service's growth over the extension.
        growth_verdicts_pct: verdicts,
        worst_growth_pct: worst,
        still_growing_pct: extended ? stillGrowing : null,
        warmup_s: warmupS,
        warmup_steady: steady(),
        warmup_samples_mb: Object.fromEntries(
          STACK_SERVICES.map((name) => [name, warmupSampling.samples.map((s) => mb(s.rss[name]))]),
        ),
        capacity_share_per_operation: CAPACITY_SHARE,
        sample_every_s: SAMPLE_EVERY_S,
        windows: {
          settle_s: SETTLE_SHARE * SOAK_S,
          first: [SETTLE_SHARE * SOAK_S, (SETTLE_SHARE + WINDOW_SHARE) * SOAK_S],
          last: [soakS - WINDOW_SHARE * SOAK_S, soakS],
          samples: [firstWindow().length, lastWindow.length],
        },
        sample_times_s: samples.map((s) => round1(s.atS)),
        services,
        operations,
        errors,
        warmup_errors: warmupErrors,
        refresh_chains_live: workload.liveChains(),
        bot_events_received: stack.botEventsReceived(),
        database: stack.database.kind,
      },
    });

    expect(firstWindow().length, 'samples in the first window').toBeGreaterThan(1);
    expect(lastWindow.length, 'samples in the last window').toBeGreaterThan(1);
    const growth = STACK_SERVICES.map(
      (name) =>
        `${name} ${services[name].growth_pct}%${extended ? ` (then ${stillGrowing[name]}% over the extension)` : ''}`,
    );
    expect(judged, `RSS growth: ${growth.join(', ')}`).toBeLessThan(limit);
    expect(errors, `errors during the soak: ${JSON.stringify(operations)}`).toBe(0);
  });
});
