/**
 * An error in Hasura's wire shape: `{ message, extensions: { path, code } }`. Codes and
 * messages follow the Hasura GraphQL Engine v2 so clients can branch on them identically
 * (e.g. `invalid-jwt` sends the web app to /login).
 */
export type HasuraErrorCode =
  | 'access-denied'
  | 'action-error'
  | 'bad-request'
  | 'constraint-error'
  | 'constraint-violation'
  | 'data-exception'
  | 'invalid-json'
  | 'invalid-headers'
  | 'invalid-jwt'
  | 'jwt-invalid-claims'
  | 'jwt-missing-role-claims'
  | 'not-found'
  | 'not-supported'
  | 'parse-failed'
  | 'permission-denied'
  | 'permission-error'
  | 'postgres-error'
  | 'rate-limit-exceeded'
  | 'unexpected'
  | 'validation-failed';

export class HasuraError extends Error {
  override name = 'HasuraError';
  constructor(
    readonly code: HasuraErrorCode,
    message: string,
    /** JSON path into the request, `$` for the whole request, e.g. `$.selectionSet.author`. */
    readonly path = '$',
    /** HTTP status outside /v1/graphql (which answers request errors with 200). */
    readonly status = 400,
    /** Extra fields merged into `extensions` (actions forward theirs). */
    readonly extraExtensions: Record<string, unknown> = {},
  ) {
    super(message);
  }

  static is(error: unknown): error is HasuraError {
    return error instanceof HasuraError;
  }

  toJSON(): { message: string; extensions: Record<string, unknown> } {
    return {
      message: this.message,
      extensions: { ...this.extraExtensions, path: this.path, code: this.code },
    };
  }
}
