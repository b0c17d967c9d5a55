import { compareAllowed, compareResponse, show, type Comparison } from './compare.ts';
import type { GraphQLBody, LoadedCase, RequestSpec } from './corpus.ts';
import type { RunningEngine, ServerSettings } from './engine.ts';
import { deliverJwt, mintJwt, type JwtKeys } from './jwt.ts';
import type { EventReceiver } from './receivers.ts';
import { requestHeaders, type PlaceholderValues } from './transform.ts';
import { WsClosedError, WsConnection, type WsProtocol } from './ws-client.ts';

/*
 * What every driver is handed (the case and its engine) and returns (its outcome), with the
 * helpers they share: headers for a request, the expected response, a WebSocket opened and
 * initialised.
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
export const MESSAGE_TIMEOUT_MS = 10_000;

export function newOutcome(): CaseOutcome {
  return { failures: [], drift: [], notes: [] };
}

export function describeError(error: unknown): string {
  if (error instanceof WsClosedError) return error.message;
  const cause = (error as Error).cause;
  const suffix = cause instanceof Error ? ` (${cause.message})` : '';
  return `${(error as Error).message}${suffix}`;
}

/** Headers for one request element: the case's, the admin secret per policy, the minted JWT. */
export function headersFor(context: CaseContext, spec: RequestSpec): Record<string, string> {
  const headers = requestHeaders(spec.headers, {
    sendAdminSecret: context.sendAdminSecret,
    values: context.placeholders,
  });
  if (!spec.jwt) return headers;
  return deliverJwt(mintJwt(spec.jwt, context.jwtKeys), spec.jwt.deliver, headers);
}

export function expectationOf(
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

export async function openSocket(
  context: CaseContext,
  protocol: WsProtocol,
): Promise<WsConnection> {
  const connection = await WsConnection.open(context.engine.wsUrl, protocol, MESSAGE_TIMEOUT_MS);
  context.track(() => connection.close());
  return connection;
}

export async function initialise(
  connection: WsConnection,
  payload: unknown,
): Promise<string | null> {
  connection.send({ type: 'connection_init', payload });
  const answer = await connection.take(() => true, MESSAGE_TIMEOUT_MS, 'connection_ack');
  return answer['type'] === 'connection_ack'
    ? null
    : `connection_init answered with ${show(answer, 160)}`;
}
