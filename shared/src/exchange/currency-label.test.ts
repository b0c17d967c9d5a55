import { describe, expect, it } from 'vitest';

import { currencyLabel } from './currency-label.ts';

describe('currency labels', () => {
  it('names a token with its network, a coin by its ticker, an unknown one by its code', () => {
    expect(currencyLabel('USDTTRC20', { symbol: 'USDT', network: 'TRC20' })).toBe('USDT (TRC20)');
    expect(currencyLabel('BTC', { symbol: 'BTC', network: 'BTC' })).toBe('BTC');
    expect(currencyLabel('XYZ', null)).toBe('XYZ');
  });
});
