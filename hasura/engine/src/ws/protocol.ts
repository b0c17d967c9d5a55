import { jsonTypeName } from '../json-type-name.ts';

/*
 * The two GraphQL-over-WebSocket protocols Hasura speaks, as its server parses them
 * (Hasura.GraphQL.Transport.WebSocket.Protocol): one client-message grammar for both,
 * `subscribe`/`start` and `complete`/`stop` being synonyms.
 */

/** `graphql-ws`: the legacy Apollo subscriptions-transport-ws protocol; `graphql-transport-ws`: the graphql-ws library's. */
export type SubProtocol = 'graphql-ws' | 'graphql-transport-ws';

export const LEGACY_PROTOCOL: SubProtocol = 'graphql-ws';
export const TRANSPORT_PROTOCOL: SubProtocol = 'graphql-transport-ws';

/** Close codes (spec section 8; the graphql-ws library's CloseCode). */
export const CloseCode = {
  Normal: 1000,
  GoingAway: 1001,
  InternalServerError: 4500,
  BadRequest: 4400,
  Unauthorized: 4401,
  Forbidden: 4403,
  SubprotocolNotAcceptable: 4406,
  ConnectionInitialisationTimeout: 4408,
  SubscriberAlreadyExists: 4409,
  TooManyInitialisationRequests: 4429,
} as const;

/** The operation a `start`/`subscribe` carries. */
export interface OperationPayload {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export type ClientMessage =
  | { type: 'connection_init'; payload: Record<string, unknown> | undefined }
  | { type: 'start'; id: string; payload: OperationPayload }
  | { type: 'stop'; id: string }
  | { type: 'connection_terminate' }
  | { type: 'ping'; payload: unknown }
  | { type: 'pong' };

export type ParsedMessage = { ok: true; message: ClientMessage } | { ok: false; error: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const fail = (detail: string): ParsedMessage => ({ ok: false, error: `Error in $: ${detail}` });

function parseId(message: Record<string, unknown>): string | ParsedMessage {
  const id = message['id'];
  if (id === undefined) return fail('key "id" not found');
  if (typeof id !== 'string')
    return fail(`parsing Text failed, expected String, but encountered ${jsonTypeName(id)}`);
  return id;
}

function parsePayload(payload: unknown): OperationPayload | string {
  if (!isObject(payload))
    return `parsing GQLReq failed, expected Object, but encountered ${jsonTypeName(payload)}`;
  const { query, variables, operationName } = payload;
  if (typeof query !== 'string')
    return query === undefined
      ? 'key "query" not found'
      : 'parsing GQLReq failed: "query" must be a string';
  if (variables !== undefined && variables !== null && !isObject(variables))
    return 'parsing GQLReq failed: "variables" must be an object';
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return 'parsing GQLReq failed: "operationName" must be a string';
  }
  return {
    query,
    ...(variables !== undefined && { variables }),
    ...(operationName !== undefined && { operationName }),
  };
}

/** Parses one client message (either protocol's vocabulary). */
export function parseClientMessage(text: string): ParsedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('Failed reading: not a valid json value');
  }
  if (!isObject(value))
    return fail(
      `parsing ClientMessage failed, expected Object, but encountered ${jsonTypeName(value)}`,
    );
  const type = value['type'];
  if (type === undefined) return fail('key "type" not found');
  if (typeof type !== 'string')
    return fail(`parsing String failed, expected String, but encountered ${jsonTypeName(type)}`);
  switch (type) {
    case 'connection_init': {
      const payload = value['payload'];
      if (payload !== undefined && payload !== null && !isObject(payload)) {
        return fail(
          `parsing ConnParams failed, expected Object, but encountered ${jsonTypeName(payload)}`,
        );
      }
      return { ok: true, message: { type, payload: payload ?? undefined } };
    }
    case 'start':
    case 'subscribe': {
      const id = parseId(value);
      if (typeof id !== 'string') return id;
      if (value['payload'] === undefined) return fail('key "payload" not found');
      const payload = parsePayload(value['payload']);
      if (typeof payload === 'string') return fail(payload);
      return { ok: true, message: { type: 'start', id, payload } };
    }
    case 'stop':
    case 'complete': {
      const id = parseId(value);
      if (typeof id !== 'string') return id;
      return { ok: true, message: { type: 'stop', id } };
    }
    case 'connection_terminate':
      return { ok: true, message: { type } };
    case 'ping':
      return { ok: true, message: { type, payload: value['payload'] } };
    case 'pong':
      return { ok: true, message: { type } };
    default:
      return fail(`unexpected type for ClientMessage: ${type}`);
  }
}

/** A close reason within the 123 bytes a close frame allows. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let cut = text.slice(0, 120);
  while (Buffer.byteLength(cut) > 120) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/**
 * The headers a connection runs with: the upgrade request's, then string-valued top-level
 * keys of the connection_init payload (as Apollo clients send `{ Authorization: ... }`), then
 * `payload.headers`, later ones winning. Names are lower-cased.
 */
export function connectionHeaders(
  requestHeaders: Readonly<Record<string, string | undefined>>,
  payload: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(requestHeaders)) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const add = (source: Record<string, unknown>) => {
    for (const [name, value] of Object.entries(source)) {
      if (typeof value === 'string') headers[name.toLowerCase()] = value;
      else if (typeof value === 'number' || typeof value === 'boolean')
        headers[name.toLowerCase()] = String(value);
    }
  };
  if (payload) {
    add(
      Object.fromEntries(
        Object.entries(payload).filter(
          ([name, value]) => name !== 'headers' && typeof value === 'string',
        ),
      ),
    );
    if (isObject(payload['headers'])) add(payload['headers']);
  }
  return headers;
}

/** Upgrade-request headers that describe the WebSocket handshake, not the client. */
export const HANDSHAKE_HEADERS = new Set([
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'upgrade',
  'connection',
]);
