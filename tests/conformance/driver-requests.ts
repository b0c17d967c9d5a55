import { show } from './compare.ts';
import { isObject, type RequestSpec, type Transport } from './corpus.ts';
import { postJson } from './http.ts';
import { toSubscriptionBody } from './transform.ts';
import {
  connectionInitPayload,
  protocolMessages,
  responseFromMessage,
  type WsProtocol,
} from './ws-client.ts';
import {
  MESSAGE_TIMEOUT_MS,
  describeError,
  expectationOf,
  headersFor,
  initialise,
  newOutcome,
  openSocket,
  type CaseContext,
  type CaseOutcome,
} from './driver-context.ts';

/*
 * The requests driver: each request sent over every transport the case allows (HTTP and the
 * WebSocket protocols), its response compared with the expected one.
 */

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
