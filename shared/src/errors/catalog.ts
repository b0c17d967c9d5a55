import type { CatalogKey } from '../i18n/resource-types.ts';

/*
 * The error catalog: every code the auth service and the actions service answer with, once.
 * Each code has the HTTP status it is answered with (the actions service may answer a few
 * codes with another status where the case says so, e.g. invalid-payload as 415 for a wrong
 * media type), whether it is sensitive, and the translation key of its message in the `errors`
 * namespace (shared/src/i18n/catalogs/<locale>/errors.ts). Codes are stable: clients branch on
 * them and translate them; the services' messages are for people.
 *
 * `sensitive` marks codes that must never be replaced by a more specific one, because the
 * difference would tell an attacker whether an account exists (hasura-auth's conceal-errors
 * idea, always on).
 */

export interface ErrorEntry {
  status: number;
  sensitive?: true;
}

/** The auth service's codes (decision 004's catalog). */
export const AUTH_ERRORS = {
  'invalid-request': { status: 400 },
  'invalid-json': { status: 400 },
  'unsupported-media-type': { status: 415 },
  'payload-too-large': { status: 413 },
  'field-required': { status: 400 },
  'invalid-email': { status: 400 },
  'passwords-do-not-match': { status: 400 },
  'password-too-short': { status: 400 },
  'password-too-long': { status: 400 },
  'password-too-simple': { status: 400 },
  'password-is-email': { status: 400 },
  'invalid-code-format': { status: 400 },
  'invalid-email-password': { status: 401, sensitive: true },
  // 400, not 401: the client treats any 401 from the auth service as "sign in again".
  'invalid-code': { status: 400 },
  'invalid-ticket': { status: 400 },
  'email-already-in-use': { status: 409 },
  'user-disabled': { status: 403 },
  'invalid-refresh-token': { status: 401, sensitive: true },
  'invalid-access-token': { status: 401 },
  // 403 rather than 401, so a typo does not sign the user out (the client's rule for 401).
  'invalid-current-password': { status: 403 },
  'two-factor-needs-email': { status: 409 },
  // Linking the two worlds (decision 037).
  'telegram-already-linked': { status: 409 },
  'telegram-link-needs-email': { status: 409 },
  'telegram-unlink-needs-email': { status: 409 },
  'account-has-email': { status: 409 },
  'invalid-reset-token': { status: 400 },
  'invalid-init-data': { status: 401 },
  'init-data-expired': { status: 401 },
  // Signed by Telegram but dated ahead of the service's clock: the service's clock is behind.
  'init-data-from-future': { status: 401 },
  'origin-not-allowed': { status: 403 },
  'too-many-requests': { status: 429 },
  'not-found': { status: 404 },
  // The database is restarting or unreachable: nothing happened, the request may be sent again.
  'service-unavailable': { status: 503 },
  'internal-error': { status: 500 },
} as const satisfies Record<string, ErrorEntry>;

/** The actions service's own codes (those it shares with auth are in AUTH_ERRORS). */
export const ACTION_ERRORS = {
  'validation-failed': { status: 400 },
  'invalid-input': { status: 400 },
  'invalid-payload': { status: 400 },
  unauthorized: { status: 401 },
  'invalid-jwt': { status: 400 },
  'access-denied': { status: 403 },
  'user-not-found': { status: 404 },
  administrator: { status: 400 },
  'cannot-revoke-self': { status: 400 },
  'unknown-direction': { status: 400 },
  'direction-disabled': { status: 400 },
  'malformed-amount': { status: 400 },
  'non-positive-amount': { status: 400 },
  'too-many-decimals': { status: 400 },
  'amount-below-min': { status: 400 },
  'amount-above-max': { status: 400 },
  'stale-rate': { status: 400 },
  'rate-unavailable': { status: 400 },
  'invalid-transition': { status: 400 },
  'refund-required': { status: 400 },
  'unconfirmed-order-limit': { status: 429 },
  'too-frequent': { status: 429 },
  duplicate: { status: 409 },
  // A payout's tx id already recorded elsewhere; the staff may record it anyway (decision 044).
  'duplicate-tx-id': { status: 409 },
  'below-minimum': { status: 400 },
  'insufficient-balance': { status: 400 },
  'mail-unavailable': { status: 503 },
  'mail-not-sent': { status: 400 },
  // A download link past its lifetime (a receipt's, decision 036): 410 Gone, not 404.
  'link-expired': { status: 410 },
  unexpected: { status: 500 },
} as const satisfies Record<string, ErrorEntry>;

export const ERRORS = { ...AUTH_ERRORS, ...ACTION_ERRORS } as const;

export type AuthErrorCode = keyof typeof AUTH_ERRORS;
export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);

/** The translation key of a code's message: `errors:<code>`. */
export const errorKey = <Code extends ErrorCode>(code: Code): `errors:${Code}` => `errors:${code}`;

/**
 * The key a client shows for a refusal it has no words of its own for: the catalog's message of
 * the code (`errors:<code>`) when it is a catalog code, else `fallback` (its generic failure).
 */
export const errorKeyOr = <Fallback extends CatalogKey>(
  code: unknown,
  fallback: Fallback,
): `errors:${ErrorCode}` | Fallback => (isErrorCode(code) ? errorKey(code) : fallback);

/**
 * The keys a client tries, in order, for a refused request: its own words for the code, then
 * the catalog's message of the code, then `fallback`; i18next shows the first it has
 * (`t([...keys])`).
 */
export const refusalKeys = (
  code: unknown,
  own: readonly string[],
  fallback: CatalogKey,
): string[] => [...own, ...(isErrorCode(code) ? [errorKey(code)] : []), fallback];
