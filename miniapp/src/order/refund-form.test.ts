import { describe, expect, it } from 'vitest';

import { refundKindOf, validateRefund } from './refund-form.ts';

const empty = { refundAddress: '', refundMemo: '' };

describe('validateRefund', () => {
  it('crypto: the address is required, then checked, and trimmed', () => {
    expect(validateRefund('crypto', false, empty)).toEqual({
      ok: false,
      errors: { refundAddress: 'common:validation.required' },
    });
    expect(validateRefund('crypto', false, { ...empty, refundAddress: '   ' })).toEqual({
      ok: false,
      errors: { refundAddress: 'common:validation.required' },
    });
    expect(validateRefund('crypto', false, { ...empty, refundAddress: 'short' })).toEqual({
      ok: false,
      errors: { refundAddress: 'exchange:create.errors.invalid-wallet-address' },
    });
    expect(
      validateRefund('crypto', false, {
        refundAddress: ' bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq ',
        refundMemo: 'ignored',
      }),
    ).toEqual({
      ok: true,
      target: { refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
    });
  });

  it('crypto with a memo network: the memo is optional and at most 64 characters', () => {
    const address = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
    expect(validateRefund('crypto', true, { refundAddress: address, refundMemo: '' })).toEqual({
      ok: true,
      target: { refundAddress: address },
    });
    expect(
      validateRefund('crypto', true, { refundAddress: address, refundMemo: ' 12345 ' }),
    ).toEqual({ ok: true, target: { refundAddress: address, refundMemo: '12345' } });
    expect(
      validateRefund('crypto', true, { refundAddress: address, refundMemo: 'x'.repeat(65) }),
    ).toEqual({ ok: false, errors: { refundMemo: 'exchange:create.errors.too-long' } });
  });

  it('fiat: an IBAN, in its electronic form', () => {
    expect(validateRefund('fiat', false, empty)).toEqual({
      ok: false,
      errors: { refundAddress: 'common:validation.required' },
    });
    expect(validateRefund('fiat', false, { ...empty, refundAddress: 'not an iban' })).toEqual({
      ok: false,
      errors: { refundAddress: 'exchange:create.errors.invalid-iban' },
    });
    expect(
      validateRefund('fiat', false, { ...empty, refundAddress: 'de89 3704 0044 0532 0130 00' }),
    ).toEqual({ ok: true, target: { refundAddress: 'DE89370400440532013000' } });
  });

  it('cash: nothing to give', () => {
    expect(validateRefund('cash', false, { refundAddress: 'x', refundMemo: 'y' })).toEqual({
      ok: true,
      target: {},
    });
  });
});

describe('refundKindOf', () => {
  it('keeps fiat and cash; anything else is crypto', () => {
    expect(refundKindOf('fiat')).toBe('fiat');
    expect(refundKindOf('cash')).toBe('cash');
    expect(refundKindOf('crypto')).toBe('crypto');
    expect(refundKindOf(undefined)).toBe('crypto');
  });
});
