import { compareResponse, show } from './compare.ts';
import { isObject, type GraphQLBody, type JsonObject, type LiveQueriesCase } from './corpus.ts';
import { resolvePlaceholders } from './transform.ts';
import { protocolMessages, type WsMessage, type WsProtocol } from './ws-client.ts';
import {
  MESSAGE_TIMEOUT_MS,
  describeError,
  initialise,
  newOutcome,
  openSocket,
  type CaseContext,
  type CaseOutcome,
} from './driver-context.ts';

/*
 * The live-queries driver: a subscription whose data must follow the writes the case makes.
 */

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
