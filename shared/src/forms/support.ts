import * as z from 'zod/mini';

import type { CatalogKey } from '../i18n/resource-types.ts';

import { emailField, MESSAGES, requiredText } from './fields.ts';

/*
 * The contact form of /contact (spec sections 2 and 5): name, e-mail, order ID and message,
 * sent through the `submitSupportRequest` action. Limits are the action's
 * (hasura/actions/src/support/submit.ts), so a text the server would refuse is caught here.
 */

export const SUPPORT_LIMITS = { name: 200, email: 254, orderId: 64, message: 5000 } as const;

export const SUPPORT_MESSAGES = {
  tooLong: 'contact:form.errors.tooLong',
  /** Spec section 5: a second request within about a minute. */
  cooldown: 'common:validation.supportCooldown',
} as const satisfies Record<string, CatalogKey>;

const limited = (max: number) => requiredText().check(z.maxLength(max, SUPPORT_MESSAGES.tooLong));

/** The contact form: name, e-mail and message are required; the order ID is optional. */
export const SupportRequestForm = z.object({
  name: limited(SUPPORT_LIMITS.name),
  email: emailField().check(z.maxLength(SUPPORT_LIMITS.email, MESSAGES.email)),
  orderId: z.optional(
    z.string().check(z.trim(), z.maxLength(SUPPORT_LIMITS.orderId, SUPPORT_MESSAGES.tooLong)),
  ),
  message: limited(SUPPORT_LIMITS.message),
});
export type SupportRequestForm = z.output<typeof SupportRequestForm>;

/**
 * The action's input for parsed form values: the optional order ID only when one was given
 * (the action stores an empty one as none anyway).
 */
export function supportRequestInput(form: SupportRequestForm): {
  name: string;
  email: string;
  message: string;
  orderId?: string;
} {
  const { name, email, message, orderId } = form;
  return { name, email, message, ...(orderId ? { orderId } : {}) };
}

/**
 * The message for a field the action refused (`invalid-input` with `extensions.field`): its
 * text says which rule failed (`email: Invalid email`, `name: at most 200 characters.`, …).
 */
export function supportFieldMessage(field: string, serverMessage: string | undefined): CatalogKey {
  const text = serverMessage ?? '';
  if (/required/i.test(text)) return MESSAGES.required;
  if (/at most/i.test(text)) return SUPPORT_MESSAGES.tooLong;
  if (field === 'email') return MESSAGES.email;
  return MESSAGES.required;
}
