import { describe, expect, it } from 'vitest';

import { refusedLimit } from './quote-refusal.ts';

describe('refusedLimit', () => {
  it('names the limit of an amount above the maximum or below the minimum', () => {
    expect(
      refusedLimit({
        status: 'error',
        code: 'amount-above-max',
        details: { code: 'amount-above-max', limit: '1.07249772', currency: 'BTC', side: 'send' },
      }),
    ).toEqual({ key: 'widget.maxIs', limit: '1.07249772', currency: 'BTC' });
    expect(
      refusedLimit({
        status: 'error',
        code: 'amount-below-min',
        details: { limit: '0.00050000', currency: 'BTC' },
      }),
    ).toEqual({ key: 'widget.minIs', limit: '0.00050000', currency: 'BTC' });
  });

  it('is null for other errors, other states and refusals without their limit', () => {
    expect(refusedLimit({ status: 'error', code: 'stale-rate', details: {} })).toBeNull();
    expect(refusedLimit({ status: 'error', code: 'amount-above-max' })).toBeNull();
    expect(refusedLimit({ status: 'idle' })).toBeNull();
  });
});
