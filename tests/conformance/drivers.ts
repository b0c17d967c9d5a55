import { setTimeout as sleep } from 'node:timers/promises';

import {
  compareAllowed,
  compareResponse,
  eventMismatch,
  show,
  subsetMismatch,
  type Comparison,
} from './compare.ts';
import {
  isObject,
  type EventsCase,
  type GraphQLBody,
  type JsonObject,
  type LiveQueriesCase,
  type LoadedCase,
  type RequestSpec,
  type Transport,
  type WsScenariosCase,
  type WsStep,
  type WsStepsCase,
} from './corpus.ts';
import type { RunningEngine, ServerSettings } from './engine.ts';
import { postJson } from './http.ts';
import { deliverJwt, mintJwt, type JwtKeys } from './jwt.ts';
import type { EventReceiver } from './receivers.ts';
import {
  requestHeaders,
  resolvePlaceholders,
  toSubscriptionBody,
  type PlaceholderState,
  type PlaceholderValues,
} from './transform.ts';
import {
  WsClosedError,
  WsConnection,
  connectionInitPayload,
  protocolMessages,
  responseFromMessage,
  type WsMessage,
  type WsProtocol,
} from './ws-client.ts';

/*
 * How each kind of case is driven against a running engine. A driver returns the failures it
 * found (an empty list is a pass), drift (tolerated differences) and notes.
 */

export interface CaseContext {
  testCase: LoadedCase;
  engine: RunningEngine;
  settings: ServerSettings;
  /** Whether the runner adds X-Hasura-Admin-Secret to this case's requests. */
  sendAdminSecret: boolean;
  placeholders: PlaceholderValues;
  jwtKeys: JwtKeys;
  wsProtocols: WsProtocol[];
  events: EventReceiver;
  /** Request number (1-based) -> why it is not sent (config.ts skipRequests). */
  skippedRequests?: Record<number, string>;
  /** Isolation before a run of the case (per_case reset/seed or truncation) + pre_requests. */
  prepare(): Promise<void>;
  signal: AbortSignal;
  /** Registers a cleanup that runs when the case ends or times out. */
  track(cleanup: () => void): void;
}

export interface CaseOutcome {
  failures: string[];
  drift: string[];
  notes: string[];
}

/** Per-message wait over websockets. */
const MESSAGE_TIMEOUT_MS = 10_000;

function newOutcome(): CaseOutcome {
  return { failures: [], drift: [], notes: [] };
}

function describeError(error: unknown): string {
  if (error instanceof WsClosedError) return error.message;
  const cause = (error as Error).cause;
  const suffix = cause instanceof Error ? ` (${cause.message})` : '';
  return `${(error as Error).message}${suffix}`;
}

/** Headers for one request element: the case's, the admin secret per policy, the minted JWT. */
function headersFor(context: CaseContext, spec: RequestSpec): Record<string, string> {
  const headers = requestHeaders(spec.headers, {
    sendAdminSecret: context.sendAdminSecret,
    values: context.placeholders,
  });
  if (!spec.jwt) return headers;
  return deliverJwt(mintJwt(spec.jwt, context.jwtKeys), spec.jwt.deliver, headers);
}

function expectationOf(
  spec: RequestSpec,
  actual: unknown,
  body: GraphQLBody | GraphQLBody[],
): Comparison | null {
  if (Array.isArray(spec.allowed_responses)) {
    return compareAllowed(
      spec.allowed_responses.map((allowed) => allowed.response),
      actual,
      body,
    );
  }
  if ('response' in spec) return compareResponse(spec.response, actual, body);
  return null;
}

async function sendHttp(
  context: CaseContext,
  spec: RequestSpec,
  label: string,
  outcome: CaseOutcome,
): Promise<void> {
  const headers = headersFor(context, spec);
  const response = await postJson(`${context.engine.url}${spec.url}`, spec.query, headers, {
    timeoutMs: MESSAGE_TIMEOUT_MS,
    signal: context.signal,
  });
  if (spec.status !== undefined && response.status !== spec.status) {
    outcome.failures.push(
      `${label} status: expected ${spec.status}, got ${response.status} (${show(response.json ?? response.text, 160)})`,
    );
    return;
  }
  if (response.json === undefined && ('response' in spec || spec.allowed_responses)) {
    outcome.failures.push(`${label} body is not JSON: ${show(response.text, 120)}`);
    return;
  }
  const comparison = expectationOf(spec, response.json, spec.query);
  if (!comparison) return;
  outcome.drift.push(...comparison.drift.map((drift) => `${label} ${drift}`));
  if (!comparison.ok) outcome.failures.push(`${label} ${comparison.diff ?? 'mismatch'}`);
}

async function openSocket(context: CaseContext, protocol: WsProtocol): Promise<WsConnection> {
  const connection = await WsConnection.open(context.engine.wsUrl, protocol, MESSAGE_TIMEOUT_MS);
  context.track(() => connection.close());
  return connection;
}

async function initialise(connection: WsConnection, payload: unknown): Promise<string | null> {
  connection.send({ type: 'connection_init', payload });
  const answer = await connection.take(() => true, MESSAGE_TIMEOUT_MS, 'connection_ack');
  return answer['type'] === 'connection_ack'
    ? null
    : `connection_init answered with ${show(answer, 160)}`;
}

async function sendWs(
  context: CaseContext,
  spec: RequestSpec,
  protocol: WsProtocol,
  viaSubscription: boolean,
  label: string,
  outcome: CaseOutcome,
): Promise<void> {
  if (Array.isArray(spec.query)) {
    outcome.notes.push(`${label} batched request: not sent over websocket (HTTP only)`);
    return;
  }
  const body = viaSubscription ? toSubscriptionBody(spec.query) : spec.query;
  const messages = protocolMessages(protocol);
  const connection = await openSocket(context, protocol);
  try {
    const refused = await initialise(connection, connectionInitPayload(headersFor(context, spec)));
    if (refused) {
      outcome.failures.push(`${label} ${refused}`);
      return;
    }
    const id = '1';
    connection.send({ id, type: messages.start, payload: body });
    const answer = await connection.take(
      (message) => message['id'] === id || message['type'] === 'connection_error',
      MESSAGE_TIMEOUT_MS,
      `an answer to operation ${id}`,
    );
    if (answer['type'] !== messages.data && answer['type'] !== 'error') {
      outcome.failures.push(
        `${label} expected a ${messages.data} or error message, got ${show(answer, 160)}`,
      );
      return;
    }
    let actual = responseFromMessage(answer);
    // An `error` message carries only the errors list: it cannot say `data: null`, so an
    // expected `data: null` beside errors is met by an error message with those errors.
    if (
      answer['type'] === 'error' &&
      isObject(actual) &&
      !('data' in actual) &&
      isObject(spec.response) &&
      spec.response['data'] === null
    ) {
      actual = { data: null, ...actual };
    }
    const comparison = expectationOf(spec, actual, body);
    if (comparison) {
      outcome.drift.push(...comparison.drift.map((drift) => `${label} ${drift}`));
      if (!comparison.ok) {
        outcome.failures.push(`${label} ${comparison.diff ?? 'mismatch'}`);
        return;
      }
    }
    if (viaSubscription) {
      connection.send({ id, type: messages.stop });
    } else if (answer['type'] === messages.data) {
      const done = await connection.take(
        (message) => message['id'] === id,
        MESSAGE_TIMEOUT_MS,
        `complete for operation ${id}`,
      );
      if (done['type'] !== 'complete') {
        outcome.failures.push(
          `${label} expected complete after the ${messages.data} message, got ${show(done, 160)}`,
        );
      }
    }
  } finally {
    connection.close();
  }
}

/** Runs of a request case: every transport, and every websocket protocol for ws transports. */
function transportRuns(
  transports: Transport[],
  protocols: WsProtocol[],
): { transport: Transport; protocol?: WsProtocol }[] {
  const runs: { transport: Transport; protocol?: WsProtocol }[] = [];
  for (const transport of transports) {
    if (transport === 'http') runs.push({ transport });
    else for (const protocol of protocols) runs.push({ transport, protocol });
  }
  return runs;
}

export async function runRequests(
  context: CaseContext,
  requests: RequestSpec[],
): Promise<CaseOutcome> {
  const outcome = newOutcome();
  const runs = transportRuns(context.testCase.entry.transports, context.wsProtocols);
  for (const run of runs) {
    await context.prepare();
    for (const [index, spec] of requests.entries()) {
      const label = `[${run.transport}${run.protocol ? ` ${run.protocol}` : ''}${
        requests.length > 1 ? ` #${index + 1}` : ''
      }]`;
      const skipped = context.skippedRequests?.[index + 1];
      if (skipped) {
        outcome.notes.push(`${label} not sent: ${skipped}`);
        continue;
      }
      try {
        if (run.transport === 'http') await sendHttp(context, spec, label, outcome);
        else
          await sendWs(
            context,
            spec,
            run.protocol as WsProtocol,
            run.transport === 'subscription',
            label,
            outcome,
          );
      } catch (error) {
        outcome.failures.push(`${label} ${describeError(error)}`);
      }
      if (context.signal.aborted) return outcome;
    }
  }
  return outcome;
}

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

// ---------------------------------------------------------------------------------------------
// Websocket steps and scenarios.

interface StepsResult {
  failure: string | null;
  /** Whether the socket ended the steps initialised (connection_ack seen). */
  acknowledged: boolean;
}

async function runWsSteps(
  context: CaseContext,
  connection: WsConnection,
  steps: WsStep[],
  values: PlaceholderValues,
  state: PlaceholderState,
): Promise<StepsResult> {
  let acknowledged = false;
  for (const [index, step] of steps.entries()) {
    const where = `step ${index + 1}`;
    try {
      if (step.send) {
        connection.send(resolvePlaceholders(step.send, values, state));
      } else if (step.expect) {
        const expected = resolvePlaceholders(step.expect, values, state);
        const message = await connection.take(
          () => true,
          MESSAGE_TIMEOUT_MS,
          `a ${show(expected['type'])} message`,
        );
        const mismatch = subsetMismatch(expected, message);
        if (mismatch) return { failure: `${where}: ${mismatch}`, acknowledged };
        if (message['type'] === 'connection_ack') acknowledged = true;
      } else if (step.expect_connection_closed) {
        const closed = await connection.waitClosed(MESSAGE_TIMEOUT_MS);
        if (step.close_code !== undefined && closed.code !== step.close_code) {
          return {
            failure: `${where}: closed with code ${closed.code}${closed.reason ? ` (${closed.reason})` : ''}, expected ${step.close_code}`,
            acknowledged,
          };
        }
      } else if (step.expect_no_message_within_seconds !== undefined) {
        const arrived = await connection.quietFor(step.expect_no_message_within_seconds * 1000);
        if (arrived.length > 0) {
          return {
            failure: `${where}: expected no message within ${step.expect_no_message_within_seconds} s, got ${show(arrived[0], 160)}`,
            acknowledged,
          };
        }
      } else if (step.wait_seconds !== undefined) {
        await sleep(step.wait_seconds * 1000, undefined, { signal: context.signal });
      }
    } catch (error) {
      return { failure: `${where}: ${describeError(error)}`, acknowledged };
    }
  }
  return { failure: null, acknowledged };
}

function adminInitPayload(context: CaseContext): Record<string, unknown> {
  const secret = context.settings.adminSecret;
  return connectionInitPayload(secret ? { 'X-Hasura-Admin-Secret': secret } : {});
}

/** `requires:` of a scenario, e.g. "admin secret configured, no unauthorized role". */
export function scenarioApplies(requires: string | undefined, settings: ServerSettings): boolean {
  if (!requires) return true;
  const text = requires.toLowerCase();
  if (text.includes('admin secret configured') && !settings.adminSecret) return false;
  if (text.includes('no unauthorized role') && settings.unauthorizedRole) return false;
  return true;
}

function protocolsFor(subprotocol: string | undefined, fallback: WsProtocol[]): WsProtocol[] {
  if (subprotocol === 'graphql-ws' || subprotocol === 'graphql-transport-ws') return [subprotocol];
  return fallback;
}

/**
 * Scenarios run in order on one socket per protocol, as pytest's class-scoped client does.
 * A scenario that begins with connection_init gets a new socket; any other reuses the open,
 * acknowledged socket, or opens one and initialises it as admin. After a failure, or a
 * connection_terminate, the next scenario starts on a new socket.
 */
export async function runScenarios(
  context: CaseContext,
  spec: WsScenariosCase,
): Promise<CaseOutcome> {
  const outcome = newOutcome();
  for (const protocol of protocolsFor(spec.subprotocol, context.wsProtocols)) {
    await context.prepare();
    let connection: WsConnection | undefined;
    let acknowledged = false;
    const state: PlaceholderState = {};
    for (const scenario of spec.scenarios) {
      const label = `[${protocol}] ${scenario.name}`;
      if (!scenarioApplies(scenario.requires, context.settings)) {
        outcome.notes.push(`${label}: not applicable here (requires ${scenario.requires})`);
        continue;
      }
      const first = scenario.steps[0];
      const startsWithInit = first?.send?.['type'] === 'connection_init';
      try {
        if (startsWithInit || !connection?.isOpen || !acknowledged) {
          connection?.close();
          connection = await openSocket(context, protocol);
          acknowledged = false;
          if (!startsWithInit) {
            const refused = await initialise(connection, adminInitPayload(context));
            if (refused) throw new Error(refused);
            acknowledged = true;
          }
        }
        const result = await runWsSteps(
          context,
          connection,
          scenario.steps,
          context.placeholders,
          state,
        );
        acknowledged ||= result.acknowledged;
        const terminated = scenario.steps.some(
          (step) => step.send?.['type'] === 'connection_terminate',
        );
        if (result.failure) outcome.failures.push(`${label}: ${result.failure}`);
        if (result.failure || terminated) {
          connection.close();
          connection = undefined;
        }
      } catch (error) {
        outcome.failures.push(`${label}: ${describeError(error)}`);
        connection?.close();
        connection = undefined;
      }
      if (context.signal.aborted) return outcome;
    }
    connection?.close();
  }
  return outcome;
}

/** A step list on one fresh socket per protocol (the auth_jwt websocket-expiry case). */
export async function runStepsCase(context: CaseContext, spec: WsStepsCase): Promise<CaseOutcome> {
  const outcome = newOutcome();
  for (const protocol of protocolsFor(spec.subprotocol, context.wsProtocols)) {
    await context.prepare();
    const values: PlaceholderValues = {
      ...context.placeholders,
      ...(spec.jwt ? { token: mintJwt(spec.jwt, context.jwtKeys) } : {}),
    };
    try {
      const connection = await openSocket(context, protocol);
      const result = await runWsSteps(context, connection, spec.steps, values, {});
      if (result.failure) outcome.failures.push(`[${protocol}] ${result.failure}`);
      connection.close();
    } catch (error) {
      outcome.failures.push(`[${protocol}] ${describeError(error)}`);
    }
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Live queries (subscriptions/cases/live_queries.yaml + live_queries_steps.yaml).

function parseJsonText(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

function dataMismatch(
  message: WsMessage,
  dataType: string,
  expectedData: unknown,
  body: GraphQLBody,
): string | null {
  if (message['type'] !== dataType)
    return `expected a ${dataType} message, got ${show(message, 160)}`;
  const comparison = compareResponse({ data: expectedData }, message['payload'], body);
  return comparison.ok ? null : (comparison.diff ?? 'mismatch');
}

async function runLiveQueriesOnce(
  context: CaseContext,
  spec: LiveQueriesCase,
  protocol: WsProtocol,
): Promise<string | null> {
  const messages = protocolMessages(protocol);
  const connection = await openSocket(context, protocol);
  try {
    const payload = resolvePlaceholders(spec.connection_init?.payload ?? {}, context.placeholders);
    const refused = await initialise(connection, payload);
    if (refused) return refused;
    const bodies = new Map<string, GraphQLBody>();
    for (const subscription of spec.subscriptions) {
      const body: GraphQLBody = {
        query: subscription.query,
        variables: subscription.variables ?? {},
      };
      bodies.set(subscription.id, body);
      connection.send({ id: subscription.id, type: messages.start, payload: body });
    }
    for (const subscription of spec.subscriptions) {
      const first = await connection.take(
        (message) => message['id'] === subscription.id,
        MESSAGE_TIMEOUT_MS,
        `first data for ${subscription.id}`,
      );
      const mismatch = dataMismatch(
        first,
        messages.data,
        subscription.first_data,
        bodies.get(subscription.id) as GraphQLBody,
      );
      if (mismatch) return `${subscription.id} first data: ${mismatch}`;
    }
    for (const [index, step] of spec.steps.entries()) {
      const id = `mutation_${index}`;
      const variables = parseJsonText(step.variables) as JsonObject | null;
      const body: GraphQLBody = { query: step.query, ...(variables ? { variables } : {}) };
      connection.send({ id, type: messages.start, payload: body });
      const answer = await connection.take(
        (message) => message['id'] === id,
        MESSAGE_TIMEOUT_MS,
        `the answer to ${id}`,
      );
      const response = parseJsonText(step.response) as JsonObject;
      const mismatch = dataMismatch(answer, messages.data, response, body);
      if (mismatch) return `${step.name} (${id}): ${mismatch}`;
      const done = await connection.take(
        (message) => message['id'] === id,
        MESSAGE_TIMEOUT_MS,
        `complete for ${id}`,
      );
      if (done['type'] !== 'complete')
        return `${step.name} (${id}): expected complete, got ${show(done, 160)}`;
      const returned = isObject(response[step.name])
        ? (response[step.name] as JsonObject)['returning']
        : undefined;
      const rows =
        step.live_response !== undefined ? parseJsonText(step.live_response) : (returned ?? []);
      for (const subscription of spec.subscriptions) {
        const alias = Object.keys(subscription.first_data)[0] ?? '';
        const limit = Number(subscription.variables?.['result_limit'] ?? Number.POSITIVE_INFINITY);
        const expected = { [alias]: Array.isArray(rows) ? rows.slice(0, limit) : rows };
        const update = await connection.take(
          (message) => message['id'] === subscription.id,
          MESSAGE_TIMEOUT_MS,
          `${subscription.id} update after ${step.name}`,
        );
        const updateMismatch = dataMismatch(
          update,
          messages.data,
          expected,
          bodies.get(subscription.id) as GraphQLBody,
        );
        if (updateMismatch) return `${subscription.id} after ${step.name}: ${updateMismatch}`;
      }
    }
    const ids = new Set(spec.subscriptions.map((subscription) => subscription.id));
    for (const id of ids) connection.send({ id, type: messages.stop });
    const extra = await connection.quietFor(
      3_000,
      (message) => !(message['type'] === 'complete' && ids.has(String(message['id']))),
    );
    if (extra.length > 0) return `unexpected message after the steps: ${show(extra[0], 160)}`;
    return null;
  } finally {
    connection.close();
  }
}

export async function runLiveQueries(
  context: CaseContext,
  spec: LiveQueriesCase,
): Promise<CaseOutcome> {
  const outcome = newOutcome();
  for (const protocol of context.wsProtocols) {
    await context.prepare();
    try {
      const failure = await runLiveQueriesOnce(context, spec, protocol);
      if (failure) outcome.failures.push(`[${protocol}] ${failure}`);
    } catch (error) {
      outcome.failures.push(`[${protocol}] ${describeError(error)}`);
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
