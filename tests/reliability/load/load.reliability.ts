import { setTimeout as delay } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recordFigures } from '../figures.ts';
import { byProfile, PROFILE } from '../profile.ts';
import {
  measureCapacity,
  round1,
  runClosedLoop,
  runOpenLoop,
  runSequential,
  secondOfArrivals,
  type RunResult,
} from '../support/load.ts';
import { startEchoProbe, type EchoFigures, type EchoProbe } from '../support/echo.ts';
import { cpuWindow, runtimeWindow } from '../support/runtime.ts';
import { startStack, type Stack } from '../support/stack.ts';

import { drainEvents, prepareWorkload, type OperationName, type Workload } from './operations.ts';

/*
 * Sustained load (issue 11): for each of the four operations (load/operations.ts) on the
 * product's own processes (support/stack.ts),
 *
 * 1. the idle p99: one request at a time at a low rate;
 * 2. the capacity: closed loops with rising concurrency until the throughput stops growing;
 * 3. an open loop at a constant 80% of that capacity (10 s short, 60 s full), requests fired
 *    at fixed intervals whatever the answers, with a cap on those in flight (inFlightCap).
 *
 * Every error under the open loop counts (non-2xx, GraphQL errors, network errors, timeouts,
 * arrivals shed at the in-flight cap) and fails the check: that is behaviour. The latency goal
 * (p99 at most P99_BOUND times the idle p99, both from the same run, so a slower machine moves both
 * sides) is a speed goal, and speed goals are figures printed beside their reference, not
 * timed assertions (the project's rule for benchmarks): each operation records its p99, the
 * bound and whether it was met, and run.ts prints them side by side. On a machine where the
 * load generator shares two cores with every service, the open loop's p99 is dominated by
 * scheduling stalls that the queue at 80% takes four times as long to drain (README,
 * "Reliability").
 * Order creation goes last, after its event-trigger backlog from the capacity search has
 * drained, so the deliveries it causes fall into its own window only.
 */

const OPERATIONS: readonly OperationName[] = ['quote', 'history', 'refresh', 'create'];
/** The top of the capacity search (workers of the closed loop). */
const MAX_CONCURRENCY = 64;
/**
 * The open loop's cap on requests in flight: a second's arrivals (at least 64), so that only a
 * stall of that order sheds requests; for the refresh at most REFRESH_CHAINS, since each refresh
 * in flight holds a chain (that ceiling on every operation was a tenth of a second of history
 * once the engine served 5,000 req/s, issue 24). A quarter of a second was too tight for CI's machine: scheduling stalls of 0.3-0.5 s
 * (its p99) shed requests that no service had refused, and a client would simply have waited;
 * such waits are in the p99 figure, and a request that waits past its 10 s timeout still fails.
 */
const REFRESH_CHAINS = 512;
/** Only a refresh holds a chain while in flight; the other operations have no such ceiling. */
const inFlightCap = (name: OperationName, rate: number) =>
  secondOfArrivals(rate, MAX_CONCURRENCY, name === 'refresh' ? REFRESH_CHAINS : Infinity);
const LOAD_SHARE = 0.8;
/**
 * The p99 at 80% of capacity against the idle p99: at most 3x for the quote and the history
 * (issue 24's acceptance), 2x for the others (issue 11's).
 */
const P99_BOUND: Record<OperationName, number> = { quote: 3, history: 3, refresh: 2, create: 2 };

/**
 * The idle p99 from 500 requests (short) or 1,500 (full), one at a time, 20 ms apart. With the
 * 125 of 25 a second for 5 s it was the second slowest of them, and moved from 4.9 to 10.2 ms
 * between two runs of the quote on one machine: the bound it sets moved with it (issue 24).
 */
const IDLE_RATE = 50;
const IDLE_S = byProfile({ short: 10, full: 30 });
const STEP_S = byProfile({ short: 2, full: 5 });
const OPEN_LOOP_S = byProfile({ short: 10, full: 60 });
/**
 * The open loop's first second, at the same rate, is its warm-up: checked like the rest, its
 * latencies reported apart (warmup_p99_ms). Switching from the capacity search's closed loop
 * to the open loop's rate opens connections and builds a backlog that the rate itself would
 * not: in the history's short profile it took up to 0.8 s to drain, with every request in it
 * waiting 20-40 ms, 8% of the run's requests (issue 24).
 */
const OPEN_LOOP_WARMUP_S = 1;

const summary = (run: RunResult) => ({
  requests: run.requests,
  ok: run.ok,
  errors: run.errors,
  p50_ms: run.p50Ms,
  p99_ms: run.p99Ms,
  max_ms: run.maxMs,
});

describe(`load, ${PROFILE} profile`, () => {
  let stack: Stack;
  let workload: Workload;
  let echo: EchoProbe;
  let echoAtRest: EchoFigures;
  const sequence = { next: 0 };

  beforeAll(async () => {
    stack = await startStack();
    workload = await prepareWorkload(stack, {
      users: MAX_CONCURRENCY,
      historyUsers: 8,
      ordersEach: 10,
      refreshChains: REFRESH_CHAINS,
      maxSockets: REFRESH_CHAINS,
    });
    echo = await startEchoProbe();
    echoAtRest = await echo.measure(IDLE_RATE, IDLE_S);
  });

  afterAll(async () => {
    workload?.close();
    await echo?.close();
    await stack?.stop();
  });

  it.each(OPERATIONS)(
    '%s: no errors at 80 per cent of capacity (p99 against its bound recorded)',
    async (name) => {
      const task = workload.tasks[name];
      const at = <T extends { nextSequence: number }>(result: T) => {
        sequence.next = result.nextSequence;
        return result;
      };

      // Warm-up (JIT, pools, keep-alive sockets), then the idle latency.
      at(await runClosedLoop({ concurrency: 4, durationS: 2, task, firstSequence: sequence.next }));
      const idle = await runSequential({
        rate: IDLE_RATE,
        durationS: IDLE_S,
        task,
        firstSequence: sequence.next,
      });
      sequence.next += idle.requests;

      const capacity = at(
        await measureCapacity({
          task,
          stepS: STEP_S,
          warmupS: 0.5,
          maxConcurrency: MAX_CONCURRENCY,
          firstSequence: sequence.next,
        }),
      );
      const drainedMs = name === 'create' ? await drainEvents(stack) : 0;

      const targetRps = round1(capacity.capacityRps * LOAD_SHARE);
      const maxInFlight = inFlightCap(name, targetRps);
      const runtime = await runtimeWindow({
        engine: stack.urls.engine,
        actions: stack.urls.actions,
        auth: stack.urls.auth,
      });
      const cpu = cpuWindow(
        {
          generator: process.pid,
          engine: stack.services.engine.pid,
          actions: stack.services.actions.pid,
          auth: stack.services.auth.pid,
          database: stack.database.pid,
        },
        { database: 'postgres' },
      );
      // The echo runs beside the open loop's measured window (after its warm-up).
      const [openLoop, echoUnderLoad] = await Promise.all([
        runOpenLoop({
          rate: targetRps,
          durationS: OPEN_LOOP_S,
          warmupS: OPEN_LOOP_WARMUP_S,
          maxInFlight,
          task,
          firstSequence: sequence.next,
        }),
        delay(OPEN_LOOP_WARMUP_S * 1000).then(() => echo.measure(IDLE_RATE, OPEN_LOOP_S)),
      ]);
      const open = at(openLoop);
      const cpuPercent = cpu?.finish();
      const services = await runtime.finish();
      const ratio = idle.p99Ms > 0 ? Math.round((open.p99Ms / idle.p99Ms) * 100) / 100 : 0;

      recordFigures({
        check: `load:${name}`,
        figures: { load_errors: open.errors },
        goal: {
          figure: 'p99_ms',
          measured: open.p99Ms,
          reference: round1(P99_BOUND[name] * idle.p99Ms),
          reference_label: `${P99_BOUND[name]}x idle p99 (${idle.p99Ms} ms)`,
          met: open.p99Ms <= P99_BOUND[name] * idle.p99Ms,
        },
        details: {
          idle_p99_ms: idle.p99Ms,
          capacity_rps: capacity.capacityRps,
          target_rps: targetRps,
          achieved_rps: open.okPerS,
          p99_ms: open.p99Ms,
          p99_ratio: ratio,
          requests: open.requests,
          duration_s: OPEN_LOOP_S,
          p50_ms: open.p50Ms,
          max_ms: open.maxMs,
          p99_from_schedule_ms: open.p99FromScheduleMs,
          schedule_lag_p99_ms: open.scheduleLagP99Ms,
          schedule_lag_max_ms: open.scheduleLagMaxMs,
          warmup_requests: open.warmup.requests,
          warmup_p99_ms: open.warmup.p99Ms,
          warmup_max_ms: open.warmup.maxMs,
          // Where the tail comes from: each service's event loop and GC over the open loop, and
          // who had the CPU (percent of one core; `other` is every process outside the stack).
          services,
          cpu_percent: cpuPercent,
          // The machine's own latency: an echo in a process of its own, at rest and beside the
          // open loop (support/echo.ts). Its ratio is what the machine adds, not the product.
          echo: {
            at_rest_p99_ms: echoAtRest.p99Ms,
            under_load_p99_ms: echoUnderLoad.p99Ms,
            under_load_max_ms: echoUnderLoad.maxMs,
            p99_ratio:
              echoAtRest.p99Ms > 0
                ? Math.round((echoUnderLoad.p99Ms / echoAtRest.p99Ms) * 100) / 100
                : 0,
          },
          peak_in_flight: open.peakInFlight,
          in_flight_cap: maxInFlight,
          error_kinds: open.errorKinds,
          error_samples: open.errorSamples,
          idle: summary(idle),
          capacity_steps: capacity.steps,
          capacity_best_rps: capacity.bestRps,
          capacity_confirmation_rps: capacity.confirmationRps,
          best_concurrency: capacity.bestConcurrency,
          capacity_errors: capacity.errorKinds,
          event_drain_ms: drainedMs,
          database: stack.database.kind,
          ...(name === 'refresh' ? { refresh_chains_live: workload.liveChains() } : {}),
        },
      });

      expect(idle.errors, `idle errors: ${JSON.stringify(idle.errorSamples)}`).toBe(0);
      expect(capacity.errors, `closed-loop errors: ${JSON.stringify(capacity.errorSamples)}`).toBe(
        0,
      );
      expect(open.errors, `errors under load: ${JSON.stringify(open.errorSamples)}`).toBe(0);
    },
  );
});
