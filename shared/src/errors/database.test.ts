import { describe, expect, it } from 'vitest';

import { databaseRefusal, isCheckViolation } from './database.ts';

/** A failed request as both clients hold it: a message and the GraphQL errors. */
const failed = (...messages: string[]) =>
  Object.assign(new Error(messages[0] ?? 'failed'), {
    errors: messages.map((message) => ({ message })),
  });

describe('database refusals', () => {
  it('reads the refusal code at the start of a check violation', () => {
    expect(
      databaseRefusal(
        failed(
          'Check constraint violation. bank-account-details-fixed: bank account EUR is the payment details of orders',
        ),
      ),
    ).toBe('bank-account-details-fixed');
    expect(databaseRefusal(failed('email-not-confirmed: confirm your e-mail first'))).toBe(
      'email-not-confirmed',
    );
    // In a later error of the response.
    expect(
      databaseRefusal(failed('other', 'Check constraint violation. sandbox-account: never staff')),
    ).toBe('sandbox-account');
  });

  it('never takes a code from inside the text or an unknown one', () => {
    expect(
      databaseRefusal(failed('Check constraint violation. the email-not-confirmed: rule')),
    ).toBeUndefined();
    expect(
      databaseRefusal(failed('Check constraint violation. unknown-code: text')),
    ).toBeUndefined();
    expect(databaseRefusal(failed('bank account cannot be changed'))).toBeUndefined();
    expect(databaseRefusal('email-not-confirmed: a string')).toBeUndefined();
    expect(databaseRefusal(undefined)).toBeUndefined();
  });

  it('tells a check violation from other failures', () => {
    expect(isCheckViolation(failed('Check constraint violation. new row violates'))).toBe(true);
    expect(isCheckViolation(failed('Uniqueness violation. duplicate key'))).toBe(false);
    expect(isCheckViolation(new TypeError('Failed to fetch'))).toBe(false);
  });
});
