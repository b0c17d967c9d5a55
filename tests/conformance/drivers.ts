import { setTimeout as sleep } from 'node:timers/promises';

import { eventMismatch, show } from './compare.ts';
import { isObject, type EventsCase, type LoadedCase } from './corpus.ts';
import { postJson } from './http.ts';
import { requestHeaders } from './transform.ts';
import {
  MESSAGE_TIMEOUT_MS,
  newOutcome,
  type CaseContext,
  type CaseOutcome,
} from './driver-context.ts';
import { runRequests } from './driver-requests.ts';
import { runScenarios, runStepsCase } from './driver-scenarios.ts';
import { runLiveQueries } from './driver-live-queries.ts';

export { type CaseContext, type CaseOutcome } from './driver-context.ts';
export { runRequests } from './driver-requests.ts';
export { runScenarios } from './driver-scenarios.ts';

/*
 * How each kind of case is driven against a running engine. A driver returns the failures it
 * found (an empty list is a pass), drift (tolerated differences) and notes.
 */

// ---------------------------------------------------------------------------------------------
// Event triggers.

export async function runEvents(context: CaseContext, spec: EventsCase): Promise<CaseOutcome> {
  const outcome = newOutcome();
  await context.prepare();
  const { events } = context;
  let cursor = 0;
  const describe = (index: number) => {
    const delivery = events.deliveries[index];
    if (!delivery) return 'nothing';
    const body = delivery.body;
    const trigger =
      isObject(body) && isObject(body['trigger']) ? body['trigger']['name'] : undefined;
    const event = isObject(body) && isObject(body['event']) ? body['event']['op'] : undefined;
    return `${show(trigger)} ${show(event)} to ${delivery.path}`;
  };
  for (const [index, step] of spec.steps.entries()) {
    const where = `step ${index + 1}`;
    if (step.request) {
      const headers = requestHeaders(step.request.headers, {
        sendAdminSecret: context.sendAdminSecret,
        values: context.placeholders,
      });
      const response = await postJson(
        `${context.engine.url}${step.request.url}`,
        step.request.query,
        headers,
        { timeoutMs: MESSAGE_TIMEOUT_MS, signal: context.signal },
      );
      if (response.status !== 200 || !isObject(response.json) || 'errors' in response.json) {
        outcome.failures.push(
          `${where} request failed: status ${response.status}, ${show(response.json ?? response.text, 200)}`,
        );
        return outcome;
      }
    }
    if (step.wait_seconds)
      await sleep(step.wait_seconds * 1000, undefined, { signal: context.signal });
    for (const [number, expected] of (step.expect_events ?? []).entries()) {
      const seconds = expected.within_seconds ?? 3;
      const what = `${where} event ${number + 1} (${expected.trigger} ${expected.op} retry ${expected.current_retry})`;
      if (!(await events.waitForCount(cursor, seconds * 1000, context.signal))) {
        outcome.failures.push(`${what}: no delivery within ${seconds} s`);
        return outcome;
      }
      const delivery = events.deliveries[cursor];
      cursor++;
      const mismatch = delivery ? eventMismatch(expected, delivery) : 'missing';
      if (mismatch) {
        outcome.failures.push(`${what}: ${mismatch}`);
        return outcome;
      }
    }
    if (step.expect_no_event_within_seconds !== undefined) {
      if (step.expect_no_event_within_seconds > 0) {
        await sleep(step.expect_no_event_within_seconds * 1000, undefined, {
          signal: context.signal,
        });
      }
      if (events.deliveries.length > cursor) {
        outcome.failures.push(
          `${where}: expected no event within ${step.expect_no_event_within_seconds} s, got ${describe(cursor)}`,
        );
        return outcome;
      }
    }
  }
  return outcome;
}

/** Runs a case by its shape. */
export async function runCaseBody(context: CaseContext): Promise<CaseOutcome> {
  const body = context.testCase.body;
  switch (body.kind) {
    case 'requests':
      return runRequests(context, body.requests);
    case 'events':
      return runEvents(context, body.spec);
    case 'ws-scenarios':
      return runScenarios(context, body.spec);
    case 'ws-steps':
      return runStepsCase(context, body.spec);
    case 'live-queries':
      return runLiveQueries(context, body.spec);
    case 'unknown':
      return { failures: [`unrecognised case file: ${body.reason}`], drift: [], notes: [] };
  }
}

/** How long a case may take before it is failed: 10 s plus its own waits, per run. */
export function caseTimeoutMs(testCase: LoadedCase, protocols: number, baseMs: number): number {
  const body = testCase.body;
  switch (body.kind) {
    case 'requests': {
      const runs = testCase.entry.transports.reduce(
        (sum, transport) => sum + (transport === 'http' ? 1 : protocols),
        0,
      );
      return baseMs + 2_000 * Math.max(0, runs * body.requests.length - 1);
    }
    case 'events': {
      let seconds = 0;
      for (const step of body.spec.steps) {
        seconds += step.wait_seconds ?? 0;
        seconds += step.expect_no_event_within_seconds ?? 0;
        for (const expected of step.expect_events ?? []) seconds += expected.within_seconds ?? 3;
      }
      return baseMs + seconds * 1000;
    }
    case 'ws-steps':
    case 'ws-scenarios': {
      const scenarios =
        body.kind === 'ws-steps' ? [{ steps: body.spec.steps }] : body.spec.scenarios;
      let seconds = 0;
      for (const scenario of scenarios) {
        seconds += 2;
        for (const step of scenario.steps) {
          seconds += (step.wait_seconds ?? 0) + (step.expect_no_message_within_seconds ?? 0);
        }
      }
      const runs = body.spec.subprotocol ? 1 : protocols;
      return (baseMs + seconds * 1000) * runs;
    }
    case 'live-queries':
      return (baseMs + 20_000) * protocols;
    case 'unknown':
      return baseMs;
  }
}
