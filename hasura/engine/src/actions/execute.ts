import { jsonTypeName } from '../json-type-name.ts';
import { print } from 'graphql';
import type pg from 'pg';

import { parseRequestId, REQUEST_ID_HEADER } from '@app/shared/observability';

import type { Session } from '../auth/session.ts';

import { ActionError } from './errors.ts';
import { isJsonObject, stringifyJson } from './json.ts';
import type { ActionPlan } from './plan.ts';
import { fetchRelationships } from './relationships.ts';
import { shapeValue, validateResponse, type RelationshipRequests } from './response.ts';
import {
  configuredHeaders,
  forwardedClientHeaders,
  mergeHeaders,
  postWebhook,
  resolveTemplate,
  WebhookTransportError,
  type WebhookResponse,
} from './webhook.ts';

/*
 * Executing a planned action (Hasura v2): POSTs Hasura's payload `{ action: { name }, input,
 * session_variables, request_query }` to the handler and maps the answer as Hasura does (2xx:
 * validated and shaped output, relationships to tables from the database; 4xx: the handler's
 * error; anything else: `unexpected`).
 */

export interface ActionExecutionContext {
  session: Session;
  /** The client's request headers (lower-cased), for forward_client_headers. */
  headers: Readonly<Record<string, string | undefined>>;
  environment: Record<string, string | undefined>;
  pool: pg.Pool;
  stringifyNumericTypes: boolean;
  /** The request's GraphQL text, sent as `request_query` (else the action field alone, printed). */
  requestQuery?: string | undefined;
  /** Receives the handler's Set-Cookie values on success; Hasura passes them to the client. */
  setCookie?: ((values: string[]) => void) | undefined;
}

const isAdminSession = (session: Session) => session.role === 'admin';

/** What `extensions.internal` shows admins about the call (Hasura's ActionInternalError). */
interface RequestInfo {
  body: unknown;
  url: string;
  headers: unknown[];
  transformed_request: null;
}

const responseInfo = (response: WebhookResponse, body: unknown) => ({
  status: response.status,
  body,
  headers: response.headers.map(([name, value]) => ({ name, value })),
});

/** The code a handler's 503 gives, top-level or in `extensions` (as a 4xx would). */
function unavailableCode(value: Record<string, unknown>): string | undefined {
  const { code, extensions } = value;
  if (typeof code === 'string') return code;
  if (isJsonObject(extensions) && typeof extensions['code'] === 'string') return extensions['code'];
  return undefined;
}

/** Reads the handler's answer: the output value on 2xx, else throws Hasura's error. */
function interpret(plan: ActionPlan, response: WebhookResponse, request: RequestInfo): unknown {
  let value: unknown;
  try {
    value = JSON.parse(response.body) as unknown;
  } catch (error) {
    throw new ActionError('unexpected', 'not a valid json response from webhook', {
      status: 500,
      internal: {
        error: `invalid json: ${(error as Error).message}`,
        request,
        response: responseInfo(response, response.body),
      },
    });
  }
  const internal = {
    error: 'unexpected response',
    request,
    response: responseInfo(response, value),
  };
  const withInternal = (error: unknown): never => {
    if (error instanceof ActionError)
      throw new ActionError(error.actionCode, error.message, {
        status: error.status,
        path: error.path,
        internal,
      });
    throw error;
  };
  const { status } = response;
  if (status >= 200 && status < 300) {
    try {
      validateResponse(value, plan.outputType, plan.catalog);
    } catch (error) {
      withInternal(error);
    }
    return value;
  }
  if (status >= 400 && status < 500) {
    const parseFailed = (message: string, path = '$'): never =>
      withInternal(new ActionError('parse-failed', message, { path }));
    if (!isJsonObject(value))
      return parseFailed(`expected Object, but encountered ${jsonTypeName(value)}`);
    const { message, code, extensions } = value;
    if (message === undefined) return parseFailed(`the key 'message' was not present`);
    if (typeof message !== 'string')
      return parseFailed(`expected String, but encountered ${jsonTypeName(message)}`, '$.message');
    if (code !== undefined && code !== null && typeof code !== 'string') {
      return parseFailed(`expected String, but encountered ${jsonTypeName(code)}`, '$.code');
    }
    throw new ActionError(typeof code === 'string' ? code : 'unexpected', message, {
      status,
      extensions: extensions === null ? undefined : extensions,
    });
  }
  // A handler that is briefly unavailable (its database restarting) and says so with a code of
  // its own: forwarded like a 4xx, as HTTP 503 so that the client retries. (Hasura answers
  // every 5xx as `internal error`; a 503 without a code still is, with status 503.)
  if (status === 503) {
    const code = isJsonObject(value) ? unavailableCode(value) : undefined;
    if (isJsonObject(value) && typeof value['message'] === 'string' && code !== undefined) {
      const { message, extensions } = value;
      throw new ActionError(code, message, {
        status,
        extensions: extensions === null ? undefined : extensions,
      });
    }
  }
  throw new ActionError('unexpected', 'internal error', {
    status: status === 503 ? 503 : 500,
    internal: {
      error: `expecting 2xx or 4xx status code, but found ${status}`,
      request,
      response: responseInfo(response, value),
    },
  });
}

/** The action field alone as GraphQL text, when the transport did not hand over the request's. */
function printedField(plan: ActionPlan): string {
  return `${plan.action.definition.type} { ${print(plan.field.node)} }`;
}

async function callHandler(plan: ActionPlan, ctx: ActionExecutionContext): Promise<unknown> {
  const { action } = plan;
  const { definition } = action;
  const payload = {
    action: { name: action.name },
    input: plan.input,
    session_variables: ctx.session.variables,
    request_query: ctx.requestQuery ?? printedField(plan),
  };
  const url = resolveTemplate(definition.handler, ctx.environment);
  const clientHeaders = definition.forward_client_headers
    ? forwardedClientHeaders(ctx.headers)
    : [];
  const headers = mergeHeaders(
    configuredHeaders(definition.headers, ctx.environment),
    clientHeaders,
  );
  // The operation's request id goes to the handler whatever the action forwards, so one id
  // follows the request through both services' logs (server.ts put the checked id here).
  const requestId = parseRequestId(ctx.headers[REQUEST_ID_HEADER]);
  if (
    requestId !== undefined &&
    !headers.some(([name]) => name.toLowerCase() === REQUEST_ID_HEADER)
  )
    headers.push([REQUEST_ID_HEADER, requestId]);
  const request: RequestInfo = {
    body: payload,
    url: definition.handler,
    headers: [...definition.headers, ...clientHeaders.map(([name, value]) => ({ name, value }))],
    transformed_request: null,
  };
  let response: WebhookResponse;
  try {
    response = await postWebhook(url, headers, stringifyJson(payload), definition.timeout * 1000);
  } catch (error) {
    if (!(error instanceof WebhookTransportError)) throw error;
    throw new ActionError('unexpected', 'http exception when calling webhook', {
      status: 500,
      internal: {
        error: { type: 'http_exception', message: error.message },
        request,
        response: null,
      },
    });
  }
  const value = interpret(plan, response, request);
  const cookies = response.headers
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .map(([, cookie]) => cookie);
  if (cookies.length > 0) ctx.setCookie?.(cookies);
  return value;
}

/** Calls the action's handler and returns the field's JSON (text). */
export async function executeAction(
  plan: ActionPlan,
  ctx: ActionExecutionContext,
): Promise<string> {
  let value: unknown;
  try {
    value = await callHandler(plan, ctx);
  } catch (error) {
    if (error instanceof ActionError && !isAdminSession(ctx.session)) throw error.withoutInternal();
    throw error;
  }
  if (plan.opaqueOutput || plan.selection.kind === 'leaf') return stringifyJson(value ?? null);
  const requests: RelationshipRequests = new Map();
  const shaped = shapeValue(value, plan.selection, requests);
  await fetchRelationships(requests, ctx);
  return stringifyJson(shaped);
}
