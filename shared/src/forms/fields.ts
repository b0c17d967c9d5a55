import * as z from 'zod/mini';

import type { CatalogKey } from '../i18n/resource-types.ts';

/*
 * Form plumbing every client shares. Schemas use `zod/mini` (about 5 KiB in a browser bundle
 * against about 27 for classic zod, PERFORMANCE.md) and their messages are i18n keys
 * (`namespace:dotted.path`), which the forms translate when they show them.
 */

/** The spec's form messages (section 5), in `common:validation`. */
export const MESSAGES = {
  required: 'common:validation.required',
  email: 'common:validation.email',
  passwordsMismatch: 'common:validation.passwordsMismatch',
  code: 'common:validation.code',
} as const satisfies Record<string, CatalogKey>;

/** Field name → the i18n key of its first problem; empty when the values are valid. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;

/**
 * Validates `values`; on success the parsed data, else the first message of each top-level
 * field, in the order the schema reports them (so "required" wins over "invalid email").
 */
export function validateForm<Schema extends z.ZodMiniType<Record<string, unknown>>>(
  schema: Schema,
  values: unknown,
):
  | { ok: true; data: z.output<Schema> }
  | { ok: false; errors: FieldErrors<Extract<keyof z.input<Schema>, string>> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/*
 * E-mail as the auth service accepts it (auth-service/src/http/validate.ts): trimmed and
 * lower-cased, an RFC 5322 dot-atom local part, LDH domain labels and an alphabetic TLD.
 */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Whether a trimmed, lower-cased address is one the auth service accepts. */
export function isEmail(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at < 1) return false;
  const local = value.slice(0, at);
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(value.slice(at + 1));
}

/** A required text field: trimmed, "The field is required" when empty. */
export const requiredText = () =>
  z.string({ error: MESSAGES.required }).check(z.trim(), z.minLength(1, MESSAGES.required));

/** An e-mail field: required, then "Invalid email". Parses to the lower-cased address. */
export const emailField = () =>
  z.string({ error: MESSAGES.required }).check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, MESSAGES.required),
    z.refine((value) => value.length === 0 || isEmail(value), MESSAGES.email),
  );
