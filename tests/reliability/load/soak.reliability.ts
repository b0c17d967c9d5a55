import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recordFigures } from '../figures.ts';
import { byProfile, PROFILE } from '../profile.ts';
import {
  round1,
  runClosedLoop,
  runOpenLoop,
  secondOfArrivals,
  type OpenLoopResult,
} from '../support/load.ts';
import {
  rssBytes,
  startStack,
  STACK_SERVICES,
  type ServiceName,
  type Stack,
} from '../support/stack.ts';
import { liveHeapBytes } from '../support/live-heap.ts';

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
 * What is judged is each service's live heap (decision 033): the V8 heap still in use after a
 * full collection, read through the inspector SIGUSR1 opens (./support/live-heap.ts) after the
 * warm-up and after the soak, between runs. Its growth is `memory_growth_pct` and must stay
 * under 10%. A service over it is soaked as long again, and must then not grow by 5% or more
 * from the end of the first run to the end of the second (a leak keeps growing; a bounded
 * cache that was still filling does not); `memory_growth_pct` is then that figure. No request
 * may fail meanwhile. Resident memory (VmRSS) is sampled every second (short) or three (full)
 * and reported beside it.
 *
 * Why not judge the resident memory, as this check first did: a leak-free Node service's RSS is
 * a saw-tooth (V8 lets garbage pile up to a multiple of the live heap before a major
 * collection), V8 enlarges its heap in steps and hands pages back some time after a
 * collection. Whichever phase a window caught decided the figure: swings of -25% to +29% were
 * seen with nothing leaking, and CI failed on them. The live heap has none of that.
 */

/** Each operation's arrival rate, as a share of its own capacity: four of them, half the machine. */
const CAPACITY_SHARE = 0.5 / OPERATION_NAMES.length;
/** The least cap on an open loop's requests in flight; above it, a second of arrivals. */
const MAX_IN_FLIGHT = 64;
/**
 * Refresh chains (and sockets): enough for a second of refresh arrivals. A fixed cap of 64 was
 * a second of arrivals when the operations were slower; at 1/8 of today's capacity (history
 * about 560 req/s) it was a ninth of a second, and a scheduling stall of that length shed
 * requests no service had refused.
 */
const REFRESH_CHAINS = 512;
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
const GROWTH_LIMIT_PCT = 10;
/** Runs of SOAK_S at most: a growth over the limit is checked by a second (see below). */
const SOAK_ROUNDS_MAX = 2;
/**
 * The most a service's live heap may grow over that second run: a leak that showed 10% over
 * the first run keeps growing about as much again; a cache filling to its bound slows down.
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
  /** The live heap after the warm-up and after each run of SOAK_S. */
  live_heap_mb: number[];
  /** From the warm-up's end to the first run's. */
  growth_pct: number;
  /** From the first run's end to the second's, when extended. */
  still_growing_pct: number | null;
  start_rss_mb: number;
  end_rss_mb: number;
  peak_rss_mb: number;
  /** Least-squares trend of the resident memory over the soak, in MB per minute. */
  trend_rss_mb_per_min: number;
  samples_rss_mb: number[];
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
        // Only a refresh holds a chain while in flight.
        maxInFlight: secondOfArrivals(
          rates[name],
          MAX_IN_FLIGHT,
          name === 'refresh' ? REFRESH_CHAINS : Infinity,
        ),
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
      refreshChains: REFRESH_CHAINS,
      maxSockets: REFRESH_CHAINS,
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

    /** Every service's live heap now (between runs: no request in flight). */
    const liveHeaps = async () => {
      const heaps = {} as Record<ServiceName, number>;
      for (const name of STACK_SERVICES) heaps[name] = await liveHeapBytes(pids[name]);
      return heaps;
    };
    const growthPct = (from: number, to: number) => round1(((to - from) / from) * 100);
    const worstGrowth = (from: Record<ServiceName, number>, to: Record<ServiceName, number>) =>
      Math.max(...STACK_SERVICES.map((name) => growthPct(from[name], to[name])));

    // The live heaps after the warm-up, then after each run of SOAK_S. A service over the limit
    // after the first is soaked as long again and judged on whether its live heap is still
    // growing: a leak keeps growing with time; a bounded cache that was still filling does not.
    const heaps = [await liveHeaps()];
    const soakSampling = sampling(SAMPLE_EVERY_S);
    const verdicts: number[] = [];
    const runs: Array<Record<OperationName, OpenLoopResult>> = [];
    try {
      for (;;) {
        runs.push(await runMix(workload, rates, SOAK_S, sequence));
        heaps.push(await liveHeaps());
        verdicts.push(worstGrowth(heaps[0]!, heaps.at(-1)!));
        if (verdicts.at(-1)! < GROWTH_LIMIT_PCT || runs.length === SOAK_ROUNDS_MAX) break;
      }
    } finally {
      await soakSampling.stop();
    }
    const extended = runs.length > 1;
    /** The figure judged: the growth over the soak, or, when extended, over the extension. */
    const judged = extended ? worstGrowth(heaps[1]!, heaps[2]!) : verdicts[0]!;
    const limit = extended ? STILL_GROWING_LIMIT_PCT : GROWTH_LIMIT_PCT;

    const { samples } = soakSampling;
    const services = {} as Record<ServiceName, ServiceMemory>;
    for (const name of STACK_SERVICES) {
      const rss = samples.map((s) => s.rss[name]);
      services[name] = {
        pid: pids[name],
        live_heap_mb: heaps.map((heap) => mb(heap[name])),
        growth_pct: growthPct(heaps[0]![name], heaps[1]![name]),
        still_growing_pct: extended ? growthPct(heaps[1]![name], heaps[2]![name]) : null,
        start_rss_mb: mb(rss[0]!),
        end_rss_mb: mb(rss.at(-1)!),
        peak_rss_mb: mb(Math.max(...rss)),
        trend_rss_mb_per_min: round1(
          mb(
            slope(
              samples.map((s) => s.atS),
              rss,
            ) * 60,
          ),
        ),
        samples_rss_mb: rss.map(mb),
      };
    }
    const soak = runs.at(-1)!;
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
        duration_s: runs.length * SOAK_S,
        measure: 'live heap (V8 heap in use after a full collection), decision 033',
        // The worst live-heap growth since the warm-up after each SOAK_S (a second figure: it
        // was extended).
        growth_verdicts_pct: verdicts,
        warmup_s: warmupS,
        warmup_steady: steady(),
        warmup_samples_rss_mb: Object.fromEntries(
          STACK_SERVICES.map((name) => [name, warmupSampling.samples.map((s) => mb(s.rss[name]))]),
        ),
        capacity_share_per_operation: CAPACITY_SHARE,
        sample_every_s: SAMPLE_EVERY_S,
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

    const growth = STACK_SERVICES.map(
      (name) =>
        `${name} ${services[name].live_heap_mb.join(' -> ')} MB (${services[name].growth_pct}%` +
        `${extended ? `, then ${services[name].still_growing_pct}% over the extension` : ''})`,
    );
    expect(judged, `live heap growth: ${growth.join(', ')}`).toBeLessThan(limit);
    expect(errors, `errors during the soak: ${JSON.stringify(operations)}`).toBe(0);
  });
});
