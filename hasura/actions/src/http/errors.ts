import { ERRORS, type ErrorCode } from '@app/shared/errors';

/**
 * An error a handler answers with: Hasura's 4xx shape `{ message, extensions: { code, ... } }`,
 * which the engine passes to the client unchanged. The code is one of the shared error catalog
 * (@app/shared/errors), which the clients translate; its status is the catalog's unless the
 * case calls for another. The message is English, for logs and tools.
 */
export class ActionFailure extends Error {
  override name = 'ActionFailure';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number = ERRORS[code].status,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON(): { message: string; extensions: Record<string, unknown> } {
    return { message: this.message, extensions: { code: this.code, ...this.details } };
  }
}
