import { describe, expect, it } from 'vitest';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

import { bankAccountRefusal, failureCode, grantRefusal, revokeRefusal } from './errors.ts';

const refusal = (code: string, message = 'refused') =>
  new GraphqlRequestError([{ message, extensions: { code } }]);

describe('team page refusals', () => {
  it('reads the code of a GraphQL failure, none of a network one', () => {
    expect(failureCode(refusal('user-not-found'))).toBe('user-not-found');
    expect(failureCode(new TypeError('Failed to fetch'))).toBeUndefined();
  });

  it('shows the grant refusals next to the e-mail, by code', () => {
    for (const code of ['user-not-found', 'user-disabled', 'administrator', 'invalid-input'])
      expect(grantRefusal(code)).toEqual({
        key: `staffTeam:managers.errors.grant.${code}`,
        field: true,
      });
    // Another catalog code: the catalog's message; anything else: the page's own failure.
    expect(grantRefusal('unexpected')).toEqual({ key: 'errors:unexpected', field: false });
    expect(grantRefusal('not-a-code')).toEqual({
      key: 'staffTeam:managers.errors.failed',
      field: false,
    });
    expect(grantRefusal(undefined).field).toBe(false);
  });

  it('names the revoke refusals', () => {
    expect(revokeRefusal('cannot-revoke-self')).toBe(
      'staffTeam:managers.errors.revoke.cannot-revoke-self',
    );
    expect(revokeRefusal('administrator')).toBe('staffTeam:managers.errors.revoke.administrator');
    expect(revokeRefusal('invalid-jwt')).toBe('errors:invalid-jwt');
    expect(revokeRefusal(undefined)).toBe('staffTeam:managers.errors.failed');
  });

  it('tells fixed payment details from other refused saves, by the refusal code', () => {
    // As the official engine answers a trigger's check violation (decision 032).
    const fixed = refusal(
      'permission-error',
      'Check constraint violation. bank-account-details-fixed: bank account EUR main is the payment details of orders and cannot be changed; deactivate it and add a new account',
    );
    expect(bankAccountRefusal(fixed)).toBe('staffTeam:bankAccounts.errors.locked');
    // The English alone is not the contract.
    const wordsOnly = refusal(
      'permission-error',
      'Check constraint violation. bank account EUR main cannot be changed',
    );
    expect(bankAccountRefusal(wordsOnly)).toBe('staffTeam:bankAccounts.errors.invalid');
    const check = refusal('permission-error', 'Check constraint violation. new row violates');
    expect(bankAccountRefusal(check)).toBe('staffTeam:bankAccounts.errors.invalid');
    const unique = refusal('constraint-violation', 'Uniqueness violation. duplicate key');
    expect(bankAccountRefusal(unique)).toBe('staffTeam:bankAccounts.errors.invalid');
    expect(bankAccountRefusal(refusal('permission-error'))).toBe(
      'staffTeam:bankAccounts.errors.notAllowed',
    );
    expect(bankAccountRefusal(new TypeError('Failed to fetch'))).toBe(
      'staffTeam:bankAccounts.errors.failed',
    );
  });
});
