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
    expect(grantRefusal('unexpected')).toEqual({
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
    expect(revokeRefusal('invalid-jwt')).toBe('staffTeam:managers.errors.failed');
  });

  it('tells fixed payment details from other constraint violations', () => {
    const fixed = refusal(
      'constraint-violation',
      'Check constraint violation. bank account EUR main is the payment details of orders and cannot be changed; deactivate it and add a new account',
    );
    expect(bankAccountRefusal(fixed, true)).toBe('staffTeam:bankAccounts.errors.locked');
    const check = refusal('constraint-violation', 'Check constraint violation. new row violates');
    expect(bankAccountRefusal(check, true)).toBe('staffTeam:bankAccounts.errors.invalid');
    expect(bankAccountRefusal(fixed, false)).toBe('staffTeam:bankAccounts.errors.invalid');
    expect(bankAccountRefusal(refusal('permission-error'), false)).toBe(
      'staffTeam:bankAccounts.errors.notAllowed',
    );
    expect(bankAccountRefusal(new TypeError('Failed to fetch'), false)).toBe(
      'staffTeam:bankAccounts.errors.failed',
    );
  });
});
