import { AUTH_ERRORS, type AuthErrorCode } from '@app/shared/errors';
import { errorMessage } from '@app/shared/errors/messages';

import type { Locale } from './i18n.ts';

/**
 * The codes this service answers with: the auth part of the shared error catalog
 * (@app/shared/errors), with each code's HTTP status and whether it is sensitive; the messages
 * are the catalog's `errors` namespace, in the request's language.
 */
export const ERRORS = AUTH_ERRORS;

export type ErrorCode = AuthErrorCode;

export interface AuthErrorData {
  /** The request field the error is about, for forms. */
  field?: string;
  /** Seconds until a rate-limited request may be retried (sent as Retry-After). */
  retryAfter?: number;
}

const BRAND = Symbol.for('auth-service.AuthError');

/** An expected failure with a catalog code; the error middleware turns it into JSON. */
export class AuthError extends Error {
  override name = 'AuthError';
  readonly [BRAND] = true;
  constructor(
    readonly code: ErrorCode,
    readonly data: AuthErrorData = {},
  ) {
    super(code);
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  /** Works across module copies, where `instanceof` would not. */
  static is(error: unknown): error is AuthError {
    return typeof error === 'object' && error !== null && BRAND in error;
  }
}

/** The response body for a code: `{ code, message }` (plus `field` for form errors). */
export function errorBody(code: ErrorCode, locale: Locale, data: AuthErrorData = {}) {
  return {
    code,
    message: errorMessage(code, locale),
    ...(data.field === undefined ? {} : { field: data.field }),
  };
}
