import { setTimeout as delay } from 'node:timers/promises';

import { Agent, errors } from 'undici';

/*
 * Load generation for the reliability checks: a keep-alive HTTP client that classifies
 * failures, and three ways to drive a task (one request per call):
 *
 * - runSequential: one request at a time at a low, fixed rate (the idle latency);
 * - runClosedLoop / measureCapacity: N workers back to back, with N rising until the
 *   throughput stops growing (capacity = the best throughput seen);
 * - runOpenLoop: a constant arrival rate. Requests are fired at fixed intervals whatever the
 *   answers do (no coordinated omission), up to a cap on requests in flight; an arrival that
 *   finds the cap reached is not sent and counts as an error (`shed`): the system has fallen
 *   behind by that many requests, and a client would be waiting as long. Size the cap so that
 *   only a real stall reaches it (e.g. a quarter of a second's arrivals).
 *
 * Latency is measured from the moment a request is handed to the socket layer to the end of
 * its answer; in the open loop the lag of the scheduler itself (a busy event loop fires late)
 * is reported beside it.
 */

/** A failed request, with the kind it is counted under (`http 500`, `graphql: <code>`, ...). */
export class RequestError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * POSTs JSON over keep-alive connections, up to `maxSockets` per origin. undici rather than
 * node:http: the generator shares the machine's two cores with every service it measures, and
 * node:http's client cost about twice as much CPU per request (114 against 53 us, in-process,
 * same answers), so that the history's generator took 41% of a core beside the engine's 59%
 * (issue 24). Each request has `timeoutMs` for its headers and again for its body.
 */
export class HttpClient {
  private readonly agent: Agent;
  private readonly targets = new Map<string, { origin: string; path: string }>();

  constructor(
    maxSockets: number,
    private readonly timeoutMs = 10_000,
  ) {
    this.agent = new Agent({ connections: maxSockets });
  }

  private target(url: string) {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
      this.targets.set(url, target);
    }
    return target;
  }

  /** Answers any status; rejects with a RequestError on a network failure or the timeout. */
  async post(url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
    try {
      const response = await this.agent.request({
        ...this.target(url),
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      return { status: response.statusCode, text: await response.body.text() };
    } catch (error) {
      if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError)
        throw new RequestError('timeout', `no answer within ${this.timeoutMs} ms`);
      const { code, message } = error as NodeJS.ErrnoException;
      throw new RequestError('network', `${code ?? ''} ${message}`.trim());
    }
  }

  close(): void {
    void this.agent.destroy();
  }
}

/** Throws a RequestError unless the answer is 2xx with valid JSON. */
export function expectJson<T>(answer: HttpAnswer): T {
  if (answer.status < 200 || answer.status > 299) {
    throw new RequestError(`http ${answer.status}`, answer.text.slice(0, 300));
  }
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new RequestError('invalid json', answer.text.slice(0, 300));
  }
}

/** Throws a RequestError for a non-2xx answer or GraphQL errors; returns `data`. */
export function expectGraphqlData(answer: HttpAnswer): Record<string, unknown> {
  const body = expectJson<{
    data?: Record<string, unknown> | null;
    errors?: Array<{ message?: string; extensions?: { code?: string } }>;
  }>(answer);
  const error = body.errors?.[0];
  if (error) {
    throw new RequestError(
      `graphql: ${error.extensions?.code ?? 'error'}`,
      error.message ?? answer.text.slice(0, 300),
    );
  }
  if (!body.data) throw new RequestError('graphql: no data', answer.text.slice(0, 300));
  return body.data;
}

/** One request; `sequence` numbers the calls of one run from 0. Throws on failure. */
export type Task = (sequence: number) => Promise<void>;

/** The nearest-rank percentile (`p` in 0..100) of unsorted values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

export const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * An open loop's cap on requests in flight: a second's arrivals at `rate`, at least `floor`, at
 * most `ceiling` (e.g. the refresh chains, each of which holds one refresh in flight). Only a
 * stall of about a second then sheds requests; a tighter cap sheds on scheduling stalls that
 * no service refused, and a client would simply have waited (see the load check).
 */
export const secondOfArrivals = (rate: number, floor: number, ceiling: number) =>
  Math.min(ceiling, Math.max(floor, Math.ceil(rate)));

/** The largest value (0 for none), without spreading a large array into arguments. */
const largest = (values: readonly number[]) => values.reduce((a, b) => (b > a ? b : a), 0);

export interface RunResult {
  /** Requests started (open loop: arrivals, including shed ones). */
  requests: number;
  ok: number;
  errors: number;
  /** Errors by kind (`http 502`, `graphql: validation-failed`, `network`, `timeout`, `shed`). */
  errorKinds: Record<string, number>;
  /** The first message of each error kind. */
  errorSamples: Record<string, string>;
  /** Latencies of the requests that got an answer (ok or not), in ms. */
  latenciesMs: number[];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  elapsedS: number;
  /** Answered ok per second over the run. */
  okPerS: number;
}

/** Error kinds of requests that got no answer. */
const UNANSWERED = new Set(['network', 'timeout', 'shed']);

class Recorder {
  requests = 0;
  ok = 0;
  errors = 0;
  errorKinds: Record<string, number> = {};
  errorSamples: Record<string, string> = {};
  latenciesMs: number[] = [];
  /** Latencies of a warm-up's answers, kept out of the figures above. */
  warmupLatenciesMs: number[] = [];
  warmupOk = 0;

  error(kind: string, message: string) {
    this.errors += 1;
    this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
    this.errorSamples[kind] ??= message.slice(0, 300);
  }

  /**
   * Runs the task once, recording its outcome and latency (a warm-up's latency apart: its
   * errors count all the same).
   */
  async run(task: Task, sequence: number, warmup = false): Promise<void> {
    this.requests += 1;
    const latencies = warmup ? this.warmupLatenciesMs : this.latenciesMs;
    const started = performance.now();
    try {
      await task(sequence);
      this.ok += 1;
      if (warmup) this.warmupOk += 1;
      latencies.push(performance.now() - started);
    } catch (error) {
      if (error instanceof RequestError) {
        // Only answered requests have a latency (a refusal to send has none either).
        if (!UNANSWERED.has(error.kind)) latencies.push(performance.now() - started);
        this.error(error.kind, error.message);
      } else {
        this.error('harness', error instanceof Error ? error.message : String(error));
      }
    }
  }

  result(elapsedS: number): RunResult {
    return {
      requests: this.requests,
      ok: this.ok,
      errors: this.errors,
      errorKinds: this.errorKinds,
      errorSamples: this.errorSamples,
      latenciesMs: this.latenciesMs,
      p50Ms: round1(percentile(this.latenciesMs, 50)),
      p99Ms: round1(percentile(this.latenciesMs, 99)),
      maxMs: round1(largest(this.latenciesMs)),
      elapsedS: round1(elapsedS),
      okPerS: round1(this.ok / elapsedS),
    };
  }
}

/** One request at a time, started every 1/`rate` s (or right after a slower answer). */
export async function runSequential(options: {
  rate: number;
  durationS: number;
  task: Task;
  firstSequence?: number;
}): Promise<RunResult> {
  const recorder = new Recorder();
  const interval = 1000 / options.rate;
  const count = Math.max(1, Math.round(options.rate * options.durationS));
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await delay(wait);
    await recorder.run(options.task, (options.firstSequence ?? 0) + i);
  }
  return recorder.result((performance.now() - started) / 1000);
}

/** `concurrency` workers, each sending its next request when the previous one is answered. */
export async function runClosedLoop(options: {
  concurrency: number;
  durationS: number;
  task: Task;
  firstSequence?: number;
}): Promise<RunResult & { nextSequence: number }> {
  const recorder = new Recorder();
  let sequence = options.firstSequence ?? 0;
  const started = performance.now();
  const deadline = started + options.durationS * 1000;
  const worker = async () => {
    while (performance.now() < deadline) await recorder.run(options.task, sequence++);
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    ...recorder.result((performance.now() - started) / 1000),
    nextSequence: sequence,
  };
}

export interface CapacityStep {
  concurrency: number;
  okPerS: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/**
 * Closed loops with rising concurrency (1, 2, 4, ... up to `maxConcurrency`), each after a
 * short warm-up at its level, until the throughput has not grown by `minGain` (5%) over the
 * best for two levels in a row, once `minConcurrency` (16) is reached. Capacity is the best
 * throughput seen (ok answers per second), measured once more at the same concurrency: the
 * lower of the two counts, so that one lucky step (the machine briefly quieter) does not set
 * the load of everything after it.
 */
export async function measureCapacity(options: {
  task: Task;
  stepS: number;
  warmupS?: number;
  maxConcurrency?: number;
  /** Levels up to this one always run (noise at low levels must not end the search). */
  minConcurrency?: number;
  minGain?: number;
  firstSequence?: number;
}): Promise<{
  capacityRps: number;
  /** The best level's throughput during the search, and when measured again. */
  bestRps: number;
  confirmationRps: number;
  bestConcurrency: number;
  steps: CapacityStep[];
  errors: number;
  errorKinds: Record<string, number>;
  errorSamples: Record<string, string>;
  nextSequence: number;
}> {
  const steps: CapacityStep[] = [];
  const errorKinds: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  let sequence = options.firstSequence ?? 0;
  let errors = 0;
  /** A warm-up and a measured closed loop at `concurrency`. */
  const level = async (concurrency: number): Promise<CapacityStep> => {
    let step: CapacityStep | undefined;
    for (const durationS of [options.warmupS ?? 0.5, options.stepS]) {
      const run = await runClosedLoop({
        concurrency,
        durationS,
        task: options.task,
        firstSequence: sequence,
      });
      sequence = run.nextSequence;
      errors += run.errors;
      for (const [kind, n] of Object.entries(run.errorKinds)) {
        errorKinds[kind] = (errorKinds[kind] ?? 0) + n;
        errorSamples[kind] ??= run.errorSamples[kind]!;
      }
      step = {
        concurrency,
        okPerS: run.okPerS,
        p50Ms: run.p50Ms,
        p99Ms: run.p99Ms,
        errors: run.errors,
      };
    }
    return step!;
  };
  let best: CapacityStep | undefined;
  let flat = 0;
  for (let concurrency = 1; concurrency <= (options.maxConcurrency ?? 64); concurrency *= 2) {
    const step = await level(concurrency);
    steps.push(step);
    if (!best || step.okPerS > best.okPerS * (1 + (options.minGain ?? 0.05))) flat = 0;
    else flat += 1;
    if (!best || step.okPerS > best.okPerS) best = step;
    if (flat >= 2 && concurrency >= (options.minConcurrency ?? 16)) break;
  }
  const confirmation = await level(best!.concurrency);
  return {
    capacityRps: Math.min(best!.okPerS, confirmation.okPerS),
    bestRps: best!.okPerS,
    confirmationRps: confirmation.okPerS,
    bestConcurrency: best!.concurrency,
    steps,
    errors,
    errorKinds,
    errorSamples,
    nextSequence: sequence,
  };
}

export interface OpenLoopResult extends RunResult {
  targetRps: number;
  /** The largest number of requests in flight at once. */
  peakInFlight: number;
  /** How late the scheduler fired (p99 and worst), in ms: the generator's own lag. */
  scheduleLagP99Ms: number;
  scheduleLagMaxMs: number;
  /** Latency measured from the scheduled time instead of the send (includes the lag). */
  p99FromScheduleMs: number;
  /** The warm-up's arrivals and their p99 and worst latency (not in the figures above). */
  warmup: { requests: number; p99Ms: number; maxMs: number };
}

/**
 * A constant arrival rate for `warmupS` + `durationS`: request i is due at start + i/rate,
 * fired when due whatever earlier requests are doing; with `maxInFlight` already in flight it
 * is shed (counted as an error of kind `shed`). The warm-up's requests are sent and checked
 * like the others (their errors count) but their latencies are reported apart: they carry the
 * switch from whatever ran before to a steady arrival rate (connections opened for the rate,
 * the backlog of the first moments), not the rate itself. Waits for the last answers.
 */
export async function runOpenLoop(options: {
  rate: number;
  durationS: number;
  warmupS?: number;
  maxInFlight: number;
  task: Task;
  firstSequence?: number;
}): Promise<OpenLoopResult & { nextSequence: number }> {
  const recorder = new Recorder();
  const intervalMs = 1000 / options.rate;
  const warmups = Math.round(options.rate * (options.warmupS ?? 0));
  const total = warmups + Math.max(1, Math.round(options.rate * options.durationS));
  const first = options.firstSequence ?? 0;
  const lags: number[] = [];
  const fromSchedule: number[] = [];
  const pending = new Set<Promise<void>>();
  let peakInFlight = 0;
  let fired = 0;
  const started = performance.now();
  const fire = (index: number) => {
    const due = started + index * intervalMs;
    const now = performance.now();
    const warmup = index < warmups;
    if (!warmup) lags.push(now - due);
    if (pending.size >= options.maxInFlight) {
      recorder.requests += 1;
      recorder.error('shed', `${options.maxInFlight} requests already in flight`);
      return;
    }
    const run = recorder
      .run(options.task, first + index, warmup)
      .then(() => {
        if (!warmup) fromSchedule.push(performance.now() - due);
      })
      .finally(() => pending.delete(run));
    pending.add(run);
    peakInFlight = Math.max(peakInFlight, pending.size);
  };
  while (fired < total) {
    const dueNow = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
    while (fired < dueNow) fire(fired++);
    if (fired >= total) break;
    const wait = started + fired * intervalMs - performance.now();
    await delay(Math.max(0, wait));
  }
  const firingS = (performance.now() - started) / 1000 - (options.warmupS ?? 0);
  await Promise.all(pending);
  const result = recorder.result(Math.max(firingS, options.durationS));
  return {
    ...result,
    // Throughput over the measured window only.
    okPerS: round1((result.ok - recorder.warmupOk) / Math.max(firingS, options.durationS)),
    warmup: {
      requests: warmups,
      p99Ms: round1(percentile(recorder.warmupLatenciesMs, 99)),
      maxMs: round1(largest(recorder.warmupLatenciesMs)),
    },
    targetRps: options.rate,
    peakInFlight,
    scheduleLagP99Ms: round1(percentile(lags, 99)),
    scheduleLagMaxMs: round1(largest(lags)),
    p99FromScheduleMs: round1(percentile(fromSchedule, 99)),
    nextSequence: first + total,
  };
}
