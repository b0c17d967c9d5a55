import * as z from 'zod/mini';

import type { CatalogKey } from '../i18n/resource-types.ts';

import { emailField, MESSAGES } from './fields.ts';

/*
 * The auth screens' forms (spec sections 2 and 5): login and its 6-digit code step, sign-up,
 * reset and change password. Messages are i18n keys; the password policy mirrors the auth
 * service's (auth-service/src/password-policy.ts) so most mistakes show before a round trip,
 * but the service stays the judge.
 */

export const PASSWORD_MESSAGES = {
  tooShort: 'auth:errors.passwordTooShort',
  tooLong: 'auth:errors.passwordTooLong',
  tooSimple: 'auth:errors.passwordTooSimple',
  isEmail: 'auth:errors.passwordIsEmail',
} as const satisfies Record<string, CatalogKey>;

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

/** Passwords are taken as typed (no trimming): spaces may be part of a passphrase. */
const typedPassword = () =>
  z.string({ error: MESSAGES.required }).check(z.minLength(1, MESSAGES.required));

/** The policy's problem with a new password, as an i18n key, or undefined when it passes. */
export function passwordProblem(password: string, email?: string): CatalogKey | undefined {
  if (password.length === 0) return MESSAGES.required;
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (length > MAX_PASSWORD_LENGTH) return PASSWORD_MESSAGES.tooLong;
  const classes = [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{Ll}\p{Lu}\p{Nd}]/u].filter((pattern) =>
    pattern.test(password),
  ).length;
  if (classes < 2) return PASSWORD_MESSAGES.tooSimple;
  if (email) {
    const lowered = password.trim().toLowerCase();
    const address = email.trim().toLowerCase();
    const local = address.slice(0, address.lastIndexOf('@'));
    if (lowered === address || (local !== '' && lowered === local))
      return PASSWORD_MESSAGES.isEmail;
  }
  return undefined;
}

const newPassword = () =>
  z.string({ error: MESSAGES.required }).check(
    z.superRefine((value, ctx) => {
      const problem = passwordProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  );

/** Login, first step: e-mail and password. */
export const LoginForm = z.object({ email: emailField(), password: typedPassword() });
export type LoginForm = z.output<typeof LoginForm>;

/** Login, second step (and quick-auth for a known e-mail): the 6 digits from the e-mail. */
export const LoginCodeForm = z.object({
  code: z.string({ error: MESSAGES.required }).check(
    z.overwrite((value) => value.replace(/\s+/g, '')),
    z.minLength(1, MESSAGES.required),
    z.refine((value) => value.length === 0 || /^\d{6}$/.test(value), MESSAGES.code),
  ),
});
export type LoginCodeForm = z.output<typeof LoginCodeForm>;

/** Settings: the password that confirms turning two-factor sign-in on or off. */
export const TwoFactorPasswordForm = z.object({ password: typedPassword() });
export type TwoFactorPasswordForm = z.output<typeof TwoFactorPasswordForm>;

/** Sign-up: e-mail, password, confirmation. */
export const SignUpForm = z
  .object({ email: emailField(), password: newPassword(), confirmPassword: typedPassword() })
  .check(
    z.superRefine((value, ctx) => {
      if (passwordProblem(value.password) === undefined) {
        const problem = passwordProblem(value.password, value.email);
        if (problem)
          ctx.addIssue({ code: 'custom', message: problem, path: ['password'], input: value });
      }
      if (value.confirmPassword !== '' && value.confirmPassword !== value.password) {
        ctx.addIssue({
          code: 'custom',
          message: MESSAGES.passwordsMismatch,
          path: ['confirmPassword'],
          input: value,
        });
      }
    }),
  );
export type SignUpForm = z.output<typeof SignUpForm>;

/** Reset password: the account's e-mail. */
export const ResetPasswordForm = z.object({ email: emailField() });
export type ResetPasswordForm = z.output<typeof ResetPasswordForm>;

/** Change password (the e-mailed link): new password and confirmation. */
export const ChangePasswordForm = z
  .object({ password: newPassword(), confirmPassword: typedPassword() })
  .check(
    z.refine((value) => value.confirmPassword === '' || value.confirmPassword === value.password, {
      error: MESSAGES.passwordsMismatch,
      path: ['confirmPassword'],
    }),
  );
export type ChangePasswordForm = z.output<typeof ChangePasswordForm>;

/** Quick auth (create-transaction page): the e-mail alone. */
export const QuickAuthForm = z.object({ email: emailField() });
export type QuickAuthForm = z.output<typeof QuickAuthForm>;
