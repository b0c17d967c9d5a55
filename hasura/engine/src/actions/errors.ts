import { HasuraError, type HasuraErrorCode } from '../errors.ts';

/*
 * Errors of an action call, in Hasura's shapes:
 * - a handler's 4xx: `{ message, extensions: { path: "$", code } }` with the handler's `code`
 *   (`unexpected` when it gave none), or, when the handler sent `extensions`, exactly
 *   `{ message, extensions: <the handler's extensions> }` (no path, no code of ours);
 * - anything else (bad response, 5xx, unreachable): `unexpected`, with `extensions.internal`
 *   (the request sent and the response received) for admin sessions only.
 */

const ENGINE_CODES = new Set<string>([
  'unexpected',
  'parse-failed',
  'validation-failed',
  'action-error',
  'not-supported',
]);

export class ActionError extends HasuraError {
  override name = 'ActionError';
  /** The code as the client sees it; may be any string a handler chose (`invalid-email`). */
  readonly actionCode: string;
  readonly handlerExtensions: unknown;
  readonly internal: unknown;

  constructor(
    code: string,
    message: string,
    options: { status?: number; path?: string; extensions?: unknown; internal?: unknown } = {},
  ) {
    super(
      (ENGINE_CODES.has(code) ? code : 'action-error') as HasuraErrorCode,
      message,
      options.path ?? '$',
      options.status ?? 400,
      {},
    );
    this.actionCode = code;
    this.handlerExtensions = options.extensions;
    this.internal = options.internal;
  }

  /** Drops `internal` (for sessions that must not see the handler's request and response). */
  withoutInternal(): ActionError {
    if (this.internal === undefined) return this;
    return new ActionError(this.actionCode, this.message, {
      status: this.status,
      path: this.path,
      extensions: this.handlerExtensions,
    });
  }

  override toJSON(): { message: string; extensions: Record<string, unknown> } {
    if (this.handlerExtensions !== undefined) {
      return {
        message: this.message,
        extensions: this.handlerExtensions as Record<string, unknown>,
      };
    }
    const extensions: Record<string, unknown> = {};
    if (this.internal !== undefined) extensions['internal'] = this.internal;
    extensions['path'] = this.path;
    extensions['code'] = this.actionCode;
    return { message: this.message, extensions };
  }
}
