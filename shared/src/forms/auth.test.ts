import { describe, expect, it } from 'vitest';

import { resources } from '../i18n/index.ts';
import {
  authErrorField,
  authErrorMessage,
  ChangePasswordForm,
  GENERIC_ERROR,
  LoginCodeForm,
  LoginForm,
  passwordProblem,
  QuickAuthForm,
  ResetPasswordForm,
  SignUpForm,
  validateForm,
} from './index.ts';

/** The English text behind an i18n key such as `common:validation.required`. */
function english(key: string): string {
  const [namespace = '', path = ''] = key.split(':');
  let node: unknown = (resources.en as Record<string, unknown>)[namespace];
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no English text for ${key}`);
  return node;
}

function messages(schema: Parameters<typeof validateForm>[0], values: unknown) {
  const result = validateForm(schema, values);
  if (result.ok) return {};
  return Object.fromEntries(
    Object.entries(result.errors).map(([field, key]) => [field, english(key as string)]),
  );
}

const GOOD = 'Correct horse 1';

describe('login form', () => {
  it('requires both fields with the spec message', () => {
    expect(messages(LoginForm, { email: '', password: '' })).toEqual({
      email: 'The field is required',
      password: 'The field is required',
    });
    expect(messages(LoginForm, {})).toEqual({
      email: 'The field is required',
      password: 'The field is required',
    });
  });

  it('says "Invalid email" for a malformed address', () => {
    for (const email of ['ann', 'ann@', '@example.com', 'ann@example', 'a b@example.com']) {
      expect(messages(LoginForm, { email, password: 'x' })).toEqual({ email: 'Invalid email' });
    }
  });

  it('trims and lower-cases the e-mail, keeps the password as typed', () => {
    expect(validateForm(LoginForm, { email: '  Ann@Example.COM ', password: ' pw ' })).toEqual({
      ok: true,
      data: { email: 'ann@example.com', password: ' pw ' },
    });
  });
});

describe('code form', () => {
  it('takes 6 digits, spaces allowed', () => {
    expect(validateForm(LoginCodeForm, { code: '123 456' })).toEqual({
      ok: true,
      data: { code: '123456' },
    });
  });

  it('refuses anything else', () => {
    expect(messages(LoginCodeForm, { code: '' })).toEqual({ code: 'The field is required' });
    for (const code of ['12345', '1234567', '12a456']) {
      expect(messages(LoginCodeForm, { code })).toEqual({ code: 'Enter the 6-digit code' });
    }
  });
});

describe('sign-up form', () => {
  it('says "The passwords do not match"', () => {
    expect(
      messages(SignUpForm, { email: 'ann@example.com', password: GOOD, confirmPassword: 'other' }),
    ).toEqual({ confirmPassword: 'The passwords do not match' });
  });

  it('requires every field, required before any other message', () => {
    expect(messages(SignUpForm, { email: '', password: '', confirmPassword: '' })).toEqual({
      email: 'The field is required',
      password: 'The field is required',
      confirmPassword: 'The field is required',
    });
  });

  it("applies the service's password policy", () => {
    const base = { email: 'ann.lee@example.com' };
    expect(
      messages(SignUpForm, { ...base, password: 'Short1', confirmPassword: 'Short1' }),
    ).toEqual({ password: 'The password must be at least 10 characters long.' });
    expect(
      messages(SignUpForm, { ...base, password: 'alllowercase', confirmPassword: 'alllowercase' }),
    ).toEqual({
      password:
        'Use at least two kinds of characters: lowercase, uppercase, digits, other characters.',
    });
    expect(
      messages(SignUpForm, { ...base, password: 'Ann.Lee@example.com', confirmPassword: 'x' }),
    ).toEqual({
      password: 'The password must not be your email.',
      confirmPassword: 'The passwords do not match',
    });
    expect(validateForm(SignUpForm, { ...base, password: GOOD, confirmPassword: GOOD }).ok).toBe(
      true,
    );
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordProblem('😀😀😀😀😀a')).toBe('auth:errors.passwordTooShort');
    expect(passwordProblem('😀😀😀😀😀abcde')).toBeUndefined();
    expect(passwordProblem('a'.repeat(129) + 'B')).toBe('auth:errors.passwordTooLong');
  });
});

describe('reset, change password and quick-auth forms', () => {
  it('reset and quick-auth need a valid e-mail', () => {
    expect(messages(ResetPasswordForm, { email: '' })).toEqual({ email: 'The field is required' });
    expect(messages(QuickAuthForm, { email: 'nope' })).toEqual({ email: 'Invalid email' });
  });

  it('change password checks the policy and the confirmation', () => {
    expect(messages(ChangePasswordForm, { password: GOOD, confirmPassword: GOOD + '!' })).toEqual({
      confirmPassword: 'The passwords do not match',
    });
    expect(messages(ChangePasswordForm, { password: '', confirmPassword: '' })).toEqual({
      password: 'The field is required',
      confirmPassword: 'The field is required',
    });
  });
});

describe('server errors', () => {
  it('map codes to translated messages, unknown codes to the generic one', () => {
    expect(english(authErrorMessage('invalid-email-password'))).toBe('Incorrect email or password');
    expect(english(authErrorMessage('passwords-do-not-match'))).toBe('The passwords do not match');
    expect(authErrorMessage('toString')).toBe(GENERIC_ERROR);
    expect(authErrorMessage(undefined)).toBe(GENERIC_ERROR);
    expect(english(GENERIC_ERROR)).toBe('Something went wrong');
  });

  it('every mapped message exists in every locale', () => {
    const codes = [
      'field-required',
      'invalid-email',
      'passwords-do-not-match',
      'invalid-code-format',
      'password-too-short',
      'password-too-long',
      'password-too-simple',
      'password-is-email',
      'invalid-email-password',
      'invalid-code',
      'invalid-ticket',
      'email-already-in-use',
      'user-disabled',
      'invalid-refresh-token',
      'invalid-access-token',
      'invalid-current-password',
      'invalid-reset-token',
      'too-many-requests',
      'network-error',
    ];
    for (const code of codes) {
      const key = authErrorMessage(code);
      expect(key).not.toBe(GENERIC_ERROR);
      const [namespace = '', path = ''] = key.split(':');
      for (const locale of ['en', 'ru', 'ua'] as const) {
        let node: unknown = (resources[locale] as Record<string, unknown>)[namespace];
        for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
        expect(typeof node, `${locale} ${key}`).toBe('string');
      }
    }
  });

  it('put an error next to its field when the form has it', () => {
    expect(authErrorField('email', ['email', 'password'])).toBe('email');
    expect(authErrorField('token', ['password', 'confirmPassword'])).toBeUndefined();
    expect(authErrorField(undefined, ['email'])).toBeUndefined();
  });
});
