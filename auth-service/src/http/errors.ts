import type { NextFunction, Request, Response } from 'express';

import { isConnectionError } from '@app/shared/db/service-pool';

import { AuthError, errorBody, type ErrorCode } from '#src/errors';
import { resolveLocale } from '#src/i18n';
import { requestInfo } from '#src/context';

/** body-parser's error types, mapped to our codes. */
const BODY_ERRORS: Record<string, ErrorCode> = {
  'entity.parse.failed': 'invalid-json',
  'entity.too.large': 'payload-too-large',
  'encoding.unsupported': 'unsupported-media-type',
  'charset.unsupported': 'unsupported-media-type',
  'entity.verify.failed': 'invalid-request',
  'request.aborted': 'invalid-request',
  'request.size.invalid': 'invalid-request',
  'stream.encoding.set': 'internal-error',
  'stream.not.readable': 'internal-error',
  'parameters.too.many': 'invalid-request',
};

function codeOf(error: unknown): ErrorCode | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const type = (error as { type?: unknown }).type;
  return typeof type === 'string' ? BODY_ERRORS[type] : undefined;
}

/** Seconds a client waits before retrying while the database is unavailable. */
const UNAVAILABLE_RETRY_AFTER = 1;

/**
 * The one terminal error middleware: catalog errors become `{ code, message }` in the
 * request's language; a lost database is `service-unavailable` (503, Retry-After); anything
 * else unexpected is logged with its stack and answered as `internal-error`, never with the
 * stack.
 */
export function errorHandler() {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    let locale;
    try {
      locale = requestInfo(req).locale;
    } catch {
      locale = resolveLocale(undefined, undefined);
    }
    const unavailable = !AuthError.is(error) && isConnectionError(error);
    const code = AuthError.is(error)
      ? error.code
      : unavailable
        ? 'service-unavailable'
        : codeOf(error);
    if (unavailable) req.log.warn({ err: error }, 'database unavailable');
    else if (code === undefined || code === 'internal-error') {
      req.log.error({ err: error }, 'unexpected error');
    }
    const finalCode = code ?? 'internal-error';
    const data = AuthError.is(error)
      ? error.data
      : unavailable
        ? { retryAfter: UNAVAILABLE_RETRY_AFTER }
        : {};
    if (res.headersSent) {
      res.end();
      return;
    }
    const status = AuthError.is(error) ? error.status : new AuthError(finalCode).status;
    if (data.retryAfter !== undefined) res.set('retry-after', String(data.retryAfter));
    res.status(status).json(errorBody(finalCode, locale, data));
  };
}
