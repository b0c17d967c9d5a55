import { GraphqlRequestError } from '@app/client/graphql/request.ts';

/*
 * The refusals of the team pages' operations, matched by code (never by the English message),
 * as i18n keys of the `staffTeam` namespace. Decision 012 lists the codes.
 */

/** The engine's or the action's code of a failed request; `undefined` for a network failure. */
export function failureCode(error: unknown): string | undefined {
  return GraphqlRequestError.is(error) ? error.code : undefined;
}

const GRANT_REFUSALS = ['user-not-found', 'user-disabled', 'administrator', 'invalid-input'];
const REVOKE_REFUSALS = ['user-not-found', 'cannot-revoke-self', 'administrator'];

/**
 * `grantManagerRole(email)`: a known refusal is about the e-mail typed (shown next to the field);
 * anything else is the generic failure.
 */
export function grantRefusal(code: string | undefined): { key: string; field: boolean } {
  if (code && GRANT_REFUSALS.includes(code))
    return { key: `staffTeam:managers.errors.grant.${code}`, field: true };
  return { key: 'staffTeam:managers.errors.failed', field: false };
}

/** `revokeManagerRole(userId)`. */
export function revokeRefusal(code: string | undefined): string {
  if (code && REVOKE_REFUSALS.includes(code)) return `staffTeam:managers.errors.revoke.${code}`;
  return 'staffTeam:managers.errors.failed';
}

/** Whether the engine's message is the trigger's "details fixed" refusal. */
const detailsFixed = (error: unknown): boolean =>
  GraphqlRequestError.is(error) &&
  (/bank_accounts_details_fixed|cannot be changed/i.test(error.message) ||
    error.errors.some((entry) => /cannot be changed/i.test(entry.message)));

/**
 * Saving a bank account. A constraint violation on an edit that changed the payment details is
 * the trigger keeping an account that orders were given (the list's count may have been stale);
 * otherwise it is a check the form did not foresee.
 */
export function bankAccountRefusal(error: unknown, changedDetails: boolean): string {
  const code = failureCode(error);
  if (code === 'constraint-violation') {
    if (changedDetails && detailsFixed(error)) return 'staffTeam:bankAccounts.errors.locked';
    return 'staffTeam:bankAccounts.errors.invalid';
  }
  if (code === 'permission-error' || code === 'access-denied' || code === 'validation-failed')
    return 'staffTeam:bankAccounts.errors.notAllowed';
  return 'staffTeam:bankAccounts.errors.failed';
}
