/*
 * One GraphQL request over HTTP, for loaders and light pages that need no cache or live data
 * (Apollo Client serves the pages that do). Errors keep the engine's `extensions.code`.
 */

export interface GraphqlErrorShape {
  message: string;
  extensions?: { code?: string; [key: string]: unknown };
}

export class GraphqlRequestError extends Error {
  override name = 'GraphqlRequestError';
  constructor(readonly errors: GraphqlErrorShape[]) {
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

export interface RequestOptions {
  /** A bearer token; anonymous without one. */
  token?: string | null;
  signal?: AbortSignal;
}

export async function graphqlRequest<T>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) {
    // Spec section 7: a token that already starts with a scheme word is sent as is.
    headers['authorization'] = /^\w+ /.test(options.token)
      ? options.token
      : `Bearer ${options.token}`;
  }
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const body = (await response.json()) as { data?: T; errors?: GraphqlErrorShape[] };
  if (body.errors && body.errors.length > 0) throw new GraphqlRequestError(body.errors);
  if (body.data === undefined)
    throw new GraphqlRequestError([{ message: `HTTP ${response.status}` }]);
  return body.data;
}
