import { errorKey, isErrorCode, type AuthErrorCode } from '../errors/catalog.ts';
import type { CatalogKey } from '../i18n/resource-types.ts';

import { PASSWORD_MESSAGES } from './auth.ts';
import { MESSAGES } from './fields.ts';

/** What a form shows for a failure it has no better words for (spec section 8). */
export const GENERIC_ERROR = 'common:notify.somethingWentWrong' satisfies CatalogKey;

/*
 * The auth service's error codes (the shared catalog, @app/shared/errors) → i18n keys. Codes
 * are stable, the service's own messages are not shown: the client speaks the page's language.
 * The forms' own words come first (the validation messages their schemas use, the sign-in
 * texts); any other catalog code is its catalog message (`errors:<code>`); anything else, the
 * generic message.
 */
const AUTH_ERROR_MESSAGES: Readonly<Partial<Record<AuthErrorCode | 'network-error', CatalogKey>>> =
  {
    'field-required': MESSAGES.required,
    'invalid-email': MESSAGES.email,
    'passwords-do-not-match': MESSAGES.passwordsMismatch,
    'invalid-code-format': MESSAGES.code,
    'password-too-short': PASSWORD_MESSAGES.tooShort,
    'password-too-long': PASSWORD_MESSAGES.tooLong,
    'password-too-simple': PASSWORD_MESSAGES.tooSimple,
    'password-is-email': PASSWORD_MESSAGES.isEmail,
    'invalid-email-password': 'auth:errors.invalidEmailPassword',
    'invalid-code': 'auth:errors.invalidCode',
    'invalid-ticket': 'auth:errors.invalidTicket',
    'email-already-in-use': 'auth:errors.emailInUse',
    'user-disabled': 'auth:errors.userDisabled',
    'invalid-refresh-token': 'auth:errors.sessionExpired',
    'invalid-access-token': 'auth:errors.sessionExpired',
    'invalid-current-password': 'auth:errors.invalidCurrentPassword',
    'invalid-reset-token': 'auth:errors.invalidResetToken',
    'too-many-requests': 'auth:errors.tooManyRequests',
    'two-factor-needs-email': 'auth:errors.twoFactorNeedsEmail',
    'network-error': 'auth:errors.network',
  };

/** The i18n key for an auth service error code; the generic message for an unknown one. */
export function authErrorMessage(code: string | undefined): CatalogKey {
  if (code === undefined) return GENERIC_ERROR;
  const own = Object.hasOwn(AUTH_ERROR_MESSAGES, code)
    ? AUTH_ERROR_MESSAGES[code as keyof typeof AUTH_ERROR_MESSAGES]
    : undefined;
  return own ?? (isErrorCode(code) ? errorKey(code) : GENERIC_ERROR);
}

/**
 * Where a form shows a server error: next to `field` when the form has that field, else at
 * the top of the form (`undefined`).
 */
export function authErrorField<Field extends string>(
  field: string | undefined,
  fields: readonly Field[],
): Field | undefined {
  return fields.find((candidate) => candidate === field);
}
