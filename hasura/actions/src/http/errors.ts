/**
 * An error a handler answers with: Hasura's 4xx shape `{ message, extensions: { code, ... } }`,
 * which the engine passes to the client unchanged.
 */
export class ActionFailure extends Error {
  override name = 'ActionFailure';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON(): { message: string; extensions: Record<string, unknown> } {
    return { message: this.message, extensions: { code: this.code, ...this.details } };
  }
}
