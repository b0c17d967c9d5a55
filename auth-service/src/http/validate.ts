import * as z from 'zod';

import { AuthError, ERRORS, type ErrorCode } from '#src/errors';

const isCode = (value: string): value is ErrorCode => Object.hasOwn(ERRORS, value);

/**
 * Parses a JSON body with a zod schema whose messages are catalog codes; the first problem
 * becomes an AuthError naming its field. A body that is not a plain object is refused before
 * the schema sees it. Unknown keys are dropped, so `__proto__` and friends go nowhere.
 */
export function parseBody<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
): z.output<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AuthError('invalid-request');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  const code = issue && isCode(issue.message) ? issue.message : 'invalid-request';
  throw new AuthError(code, typeof field === 'string' ? { field } : {});
}

/** A required string; a missing or empty value is `field-required`, another type is invalid. */
export const requiredString = (maxLength: number, tooLong: ErrorCode = 'invalid-request') =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-request'),
    })
    .min(1, 'field-required')
    .max(maxLength, tooLong);

/*
 * E-mail: trimmed and lower-cased before any lookup or uniqueness check. The local part is
 * RFC 5322's dot-atom (so `&`, `'`, `{` are allowed and must be escaped wherever shown); the
 * domain is LDH labels with an alphabetic TLD. Matches the database's own CHECK.
 */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function isEmail(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at < 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(domain);
}

export const email = z
  .string({ error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-email') })
  .max(320, 'invalid-email')
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.string().min(1, 'field-required').refine(isEmail, 'invalid-email'));

/** A password as typed; the policy (register, change) is checked separately. */
export const password = requiredString(1024, 'password-too-long');

/** The optional confirmation the forms send; compared by the handler. */
export const confirmPassword = z.string({ error: 'invalid-request' }).max(1024).optional();

/** A referral name as the cookie holds it; anything odd is ignored, never an error. */
export const referralCode = z
  .unknown()
  .transform((value) =>
    typeof value === 'string' && /^[A-Za-z0-9]{3,20}$/.test(value) ? value : undefined,
  )
  .optional();

/** An opaque token (refresh, ticket, reset): 43 base64url characters. */
export const opaqueToken = z
  .string({ error: (issue) => (issue.input === undefined ? 'field-required' : 'invalid-request') })
  .min(1, 'field-required')
  .regex(/^[A-Za-z0-9_-]{43}$/, 'invalid-request');

/** `locale` may accompany any body; resolved by requestInfo. */
export const locale = z.string().max(35).optional();
