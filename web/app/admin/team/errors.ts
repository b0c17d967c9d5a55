import { GraphqlRequestError } from '@app/client/graphql/request.ts';
import { errorKeyOr } from '@app/shared/errors';
import { databaseRefusal, isCheckViolation } from '@app/shared/errors/database';

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
  return { key: errorKeyOr(code, 'staffTeam:managers.errors.failed'), field: false };
}

/** `revokeManagerRole(userId)`. */
export function revokeRefusal(code: string | undefined): string {
  if (code && REVOKE_REFUSALS.includes(code)) return `staffTeam:managers.errors.revoke.${code}`;
  return errorKeyOr(code, 'staffTeam:managers.errors.failed');
}

/**
 * Saving a bank account. The trigger keeping an account that orders were given refuses with
 * its code (`bank-account-details-fixed`, decision 032; the list's count may have been stale);
 * any other check or constraint is a rule the form did not foresee.
 */
export function bankAccountRefusal(error: unknown): string {
  if (databaseRefusal(error) === 'bank-account-details-fixed')
    return 'staffTeam:bankAccounts.errors.locked';
  const code = failureCode(error);
  if (code === 'constraint-violation' || isCheckViolation(error))
    return 'staffTeam:bankAccounts.errors.invalid';
  if (code === 'permission-error' || code === 'access-denied' || code === 'validation-failed')
    return 'staffTeam:bankAccounts.errors.notAllowed';
  return errorKeyOr(code, 'staffTeam:bankAccounts.errors.failed');
}
