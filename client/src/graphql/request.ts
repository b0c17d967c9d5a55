import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { DocumentNode, OperationDefinitionNode, OperationTypeNode } from 'graphql';
// The enum's own module, not the package's index: the portal's chunking follows static imports,
// and the index would pull the rest of graphql-js into every page's first load (web/vite.config.ts).
import { Kind } from 'graphql/language/kinds';

import { reportGraphqlError } from './error-hook.ts';
import type { ActingRole } from './acting-role.ts';

/*
 * One GraphQL request over HTTP (spec section 7): the typed document printed once, the bearer
 * token as the spec wants it, statuses 400-599 as errors, and idempotent requests (queries)
 * retried once on a transient status. Loaders and light pages call it directly; Apollo Client's
 * HTTP link is built on it, so both follow the same rules. Errors keep the engine's
 * `extensions.code`.
 */

export interface GraphqlErrorShape {
  message: string;
  extensions?: { code?: string; [key: string]: unknown };
}

export class GraphqlRequestError extends Error {
  override name = 'GraphqlRequestError';
  constructor(
    readonly errors: GraphqlErrorShape[],
    /** The HTTP status when the response was not a GraphQL answer. */
    readonly status?: number,
  ) {
    super(errors[0]?.message ?? 'GraphQL request failed');
  }

  /** The first error's code, e.g. `invalid-jwt`, `stale-rate`, `validation-failed`. */
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }

  static is(error: unknown): error is GraphqlRequestError {
    return error instanceof GraphqlRequestError;
  }
}

/** Statuses after which an idempotent request is tried once more (spec section 9). */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([
  408, 409, 425, 429, 500, 502, 503, 504,
]);

export interface RequestOptions {
  /** A bearer token; anonymous without one. */
  token?: string | null;
  /** The role to act in (`x-hasura-role`); the token's default role without one. */
  role?: ActingRole | undefined;
  signal?: AbortSignal;
}

/** An operation as it goes on the wire: its text, its type and its name. */
export interface PrintedOperation {
  text: string;
  type: `${OperationTypeNode}` | undefined;
  name: string | undefined;
}

const printed = new WeakMap<DocumentNode, PrintedOperation>();

/**
 * The typed document's operation with the text codegen printed into its `loc`
 * (scripts/codegen/generate.ts), so the browsers need no GraphQL printer. Pages that run
 * Apollo Client print its transformed documents themselves (apollo-client.ts).
 */
export function printedOperation(document: DocumentNode): PrintedOperation {
  let entry = printed.get(document);
  if (!entry) {
    const text = document.loc?.source.body;
    if (text === undefined) throw new Error('a document without its text: run npm run codegen');
    const operation = document.definitions.find(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === Kind.OPERATION_DEFINITION,
    );
    entry = { text, type: operation?.operation, name: operation?.name?.value };
    printed.set(document, entry);
  }
  return entry;
}

/** Spec section 7: a token that already starts with a scheme word is sent as is. */
export const authorizationHeader = (token: string): string =>
  /^\w+ /.test(token) ? token : `Bearer ${token}`;

async function post<T>(
  url: string,
  body: string,
  options: RequestOptions,
): Promise<{ data: T } | GraphqlRequestError> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers['authorization'] = authorizationHeader(options.token);
  if (options.role) headers['x-hasura-role'] = options.role;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    data?: T;
    errors?: GraphqlErrorShape[];
  };
  if (answer.errors && answer.errors.length > 0) {
    return new GraphqlRequestError(answer.errors, response.ok ? undefined : response.status);
  }
  if (!response.ok || answer.data === undefined) {
    return new GraphqlRequestError([{ message: `HTTP ${response.status}` }], response.status);
  }
  return { data: answer.data };
}

export function graphqlRequest<TData, TVariables extends Record<string, unknown>>(
  url: string,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  options: RequestOptions = {},
): Promise<TData> {
  return sendOperation<TData>(url, printedOperation(document), variables, options);
}

/** Sends one printed operation: retried once on a transient status when it is a query. */
export async function sendOperation<TData>(
  url: string,
  operation: PrintedOperation,
  variables: Record<string, unknown> | undefined,
  options: RequestOptions = {},
): Promise<TData> {
  const body = JSON.stringify({ query: operation.text, variables });
  const idempotent = operation.type === 'query';
  const report = (error: unknown) => reportGraphqlError({ operationName: operation.name, error });
  let result: Awaited<ReturnType<typeof post<TData>>>;
  try {
    result = await post<TData>(url, body, options);
    if (
      idempotent &&
      result instanceof GraphqlRequestError &&
      result.status !== undefined &&
      RETRY_STATUSES.has(result.status)
    ) {
      result = await post<TData>(url, body, options);
    }
  } catch (error) {
    // The network failed (or the request was aborted, which is nobody's failure).
    if (!options.signal?.aborted) report(error);
    throw error;
  }
  if (result instanceof GraphqlRequestError) {
    report(result);
    throw result;
  }
  return result.data;
}
