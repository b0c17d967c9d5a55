import { describe, expect, it } from 'vitest';

import { resources } from '../i18n/index.ts';
import {
  MESSAGES,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  supportFieldMessage,
  SupportRequestForm,
  supportRequestInput,
  validateForm,
} from './index.ts';

/** The text behind an i18n key such as `common:validation.required`, in `locale`. */
function text(key: string, locale: keyof typeof resources = 'en'): string {
  const [namespace = '', path = ''] = key.split(':');
  let node: unknown = (resources[locale] as Record<string, unknown>)[namespace];
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no ${locale} text for ${key}`);
  return node;
}

function messages(values: unknown) {
  const result = validateForm(SupportRequestForm, values);
  if (result.ok) return {};
  return Object.fromEntries(
    Object.entries(result.errors).map(([field, key]) => [field, text(key)]),
  );
}

const GOOD = { name: 'Ann', email: 'ann@example.com', orderId: '', message: 'Where is my order?' };

describe('support request form', () => {
  it('requires name, e-mail and message with the spec message; the order ID is optional', () => {
    expect(messages({ name: '', email: '', orderId: '', message: '' })).toEqual({
      name: 'The field is required',
      email: 'The field is required',
      message: 'The field is required',
    });
    expect(messages({})).toEqual({
      name: 'The field is required',
      email: 'The field is required',
      message: 'The field is required',
    });
    expect(messages({ ...GOOD, name: '   ', message: '\n\t' })).toEqual({
      name: 'The field is required',
      message: 'The field is required',
    });
  });

  it('says "Invalid email" for a malformed address', () => {
    for (const email of ['ann', 'ann@', '@example.com', 'ann@example', 'a b@example.com']) {
      expect(messages({ ...GOOD, email })).toEqual({ email: 'Invalid email' });
    }
  });

  it('trims the texts and lower-cases the e-mail', () => {
    expect(
      validateForm(SupportRequestForm, {
        name: '  Ann Lee ',
        email: ' Ann@Example.COM ',
        orderId: ' 42 ',
        message: ' Hello \n',
      }),
    ).toEqual({
      ok: true,
      data: { name: 'Ann Lee', email: 'ann@example.com', orderId: '42', message: 'Hello' },
    });
  });

  it("keeps to the action's limits", () => {
    expect(
      messages({
        name: 'n'.repeat(SUPPORT_LIMITS.name + 1),
        email: GOOD.email,
        orderId: '1'.repeat(SUPPORT_LIMITS.orderId + 1),
        message: 'm'.repeat(SUPPORT_LIMITS.message + 1),
      }),
    ).toEqual({
      name: 'The text is too long',
      orderId: 'The text is too long',
      message: 'The text is too long',
    });
    expect(
      validateForm(SupportRequestForm, {
        ...GOOD,
        name: 'n'.repeat(SUPPORT_LIMITS.name),
        message: 'm'.repeat(SUPPORT_LIMITS.message),
      }).ok,
    ).toBe(true);
  });

  it('sends the order ID only when one was given', () => {
    const parsed = validateForm(SupportRequestForm, GOOD);
    if (!parsed.ok) throw new Error('expected valid values');
    expect(supportRequestInput(parsed.data)).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      message: 'Where is my order?',
    });
    expect(supportRequestInput({ ...parsed.data, orderId: '17' })).toMatchObject({
      orderId: '17',
    });
  });
});

describe('support request errors', () => {
  it("maps the action's field problems to messages", () => {
    expect(supportFieldMessage('email', 'email: Invalid email')).toBe(MESSAGES.email);
    expect(supportFieldMessage('message', 'message: The field is required.')).toBe(
      MESSAGES.required,
    );
    expect(supportFieldMessage('name', 'name: at most 200 characters.')).toBe(
      SUPPORT_MESSAGES.tooLong,
    );
  });

  it('has the cooldown message of spec section 5 in every locale', () => {
    expect(text(SUPPORT_MESSAGES.cooldown)).toBe(
      'You have already submitted a request recently. Please try again in a minute.',
    );
    for (const locale of ['ru', 'ua'] as const) {
      expect(text(SUPPORT_MESSAGES.cooldown, locale)).not.toBe('');
      expect(text(SUPPORT_MESSAGES.tooLong, locale)).not.toBe('');
    }
  });
});
