import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { orderIdOfLinkToken, orderLinkToken, orderLinkUrl } from './link-token.ts';

const SECRET = 'test-order-link-secret-0123456789abcdef';

describe('secret order links', () => {
  it('round-trips every order id and refuses every other spelling', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(42), fc.nat(63), (id, position, replacement) => {
        const token = orderLinkToken(SECRET, id);
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(orderIdOfLinkToken(SECRET, token)).toBe(id.toLowerCase());
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const char = alphabet[replacement]!;
        fc.pre(char !== token[position]);
        const altered = token.slice(0, position) + char + token.slice(position + 1);
        expect(orderIdOfLinkToken(SECRET, altered)).toBeNull();
      }),
    );
  });

  it('refuses a token made under another key, and malformed ones', () => {
    const id = '5b1c1c3e-3f2a-4a8e-9a41-0f6c1d2e3b4a';
    expect(
      orderIdOfLinkToken(SECRET, orderLinkToken('another-secret-0123456789abcdef', id)),
    ).toBeNull();
    for (const bad of ['', 'x', `${orderLinkToken(SECRET, id)}A`, '/'.repeat(43)])
      expect(orderIdOfLinkToken(SECRET, bad)).toBeNull();
  });

  it('links to the order page in the order locale', () => {
    expect(orderLinkUrl('https://ex.example', 'en', 'T')).toBe('https://ex.example/order/T');
    expect(orderLinkUrl('https://ex.example', 'ua', 'T')).toBe('https://ex.example/ua/order/T');
  });
});
