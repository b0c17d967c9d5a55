import { errorKeyOr } from '@app/shared/errors';
import { isEmail } from '@app/shared/forms';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

/*
 * The feedback form (spec section 2: e-mail, subject, message) checked as `sendSupportFeedback`
 * checks it (hasura/actions/src/support/feedback.ts: required, at most 254 / 200 / 5000
 * characters, an e-mail), and the action's refusals as messages: a field's (`invalid-input`
 * with `field`) next to that field, the others (`too-frequent`, `duplicate`, `mail-not-sent`, …)
 * for the whole form. Messages are i18n keys.
 */

export type FeedbackField = 'email' | 'subject' | 'message';
export type FeedbackValues = Record<FeedbackField, string>;
export type FeedbackErrors = Partial<Record<FeedbackField, string>>;

export const FEEDBACK_LIMITS: Record<FeedbackField, number> = {
  email: 254,
  subject: 200,
  message: 5000,
};

export const FEEDBACK_FIELDS: readonly FeedbackField[] = ['email', 'subject', 'message'];

const REQUIRED = 'common:validation.required';
const INVALID_EMAIL = 'common:validation.email';
const TOO_LONG = 'staffCustomers:feedback.errors.tooLong';

/** The trimmed values, or the first problem of each field. */
export function validateFeedback(
  values: FeedbackValues,
): { ok: true; data: FeedbackValues } | { ok: false; errors: FeedbackErrors } {
  const data: FeedbackValues = {
    email: values.email.trim(),
    subject: values.subject.trim(),
    message: values.message.trim(),
  };
  const errors: FeedbackErrors = {};
  for (const field of FEEDBACK_FIELDS) {
    const value = data[field];
    if (value === '') errors[field] = REQUIRED;
    else if (value.length > FEEDBACK_LIMITS[field]) errors[field] = TOO_LONG;
  }
  // The action's own rule is looser than the sign-up one; a typo is still worth catching here.
  if (!errors.email && !isEmail(data.email.toLowerCase())) errors.email = INVALID_EMAIL;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, data };
}

const FORM_MESSAGES: Record<string, string> = {
  'too-frequent': 'staffCustomers:feedback.errors.tooFrequent',
  duplicate: 'staffCustomers:feedback.errors.duplicate',
  'mail-not-sent': 'staffCustomers:feedback.errors.mailNotSent',
  'mail-unavailable': 'staffCustomers:feedback.errors.mailUnavailable',
  'not-found': 'staffCustomers:feedback.errors.requestNotFound',
};

export interface FeedbackFailure {
  /** The field the action refused, when it is one of the form's. */
  field?: FeedbackField;
  /** The i18n key of the message. */
  message: string;
}

/** What to tell the staff member when `sendSupportFeedback` fails with `error`. */
export function feedbackFailure(error: unknown): FeedbackFailure {
  if (!GraphqlRequestError.is(error)) return { message: 'staffCustomers:feedback.errors.network' };
  const code = error.code;
  if (code === 'invalid-input') {
    const field = error.errors[0]?.extensions?.['field'];
    const text = error.errors[0]?.message ?? '';
    if (field === 'email' || field === 'subject' || field === 'message') {
      const message = /required/i.test(text)
        ? REQUIRED
        : /at most/i.test(text)
          ? TOO_LONG
          : field === 'email'
            ? INVALID_EMAIL
            : 'staffCustomers:feedback.errors.invalid';
      return { field, message };
    }
    return { message: 'staffCustomers:feedback.errors.invalid' };
  }
  const known = code === undefined ? undefined : FORM_MESSAGES[code];
  return { message: known ?? errorKeyOr(code, 'staffCustomers:feedback.errors.unknown') };
}

/** The subject a reply to a request starts with. */
export function replySubject(subject: string | null | undefined, fallback: string): string {
  const base = (subject ?? '').trim();
  if (!base) return fallback;
  return /^re:/i.test(base) ? base : `Re: ${base}`;
}
