import { describe, expect, it } from 'vitest';

import { currencyIcon } from './currency-icon.ts';

// The folder the tests see (no build plugin defines one).
const ICONS = '/assets/currency-icons';

describe('currencyIcon', () => {
  it('gives a known coin its logo and no badge', () => {
    expect(currencyIcon({ symbol: 'BTC', network: 'BTC', kind: 'crypto' }, '/')).toEqual({
      src: `${ICONS}/tokens/BTC.svg`,
      text: 'BT',
      badge: null,
    });
    // A chain's own coin on its own network carries no badge either.
    expect(currencyIcon({ symbol: 'TRX', network: 'TRC20' }, '/').badge).toBeNull();
    expect(currencyIcon({ symbol: 'ETH', network: 'ERC20' }, '/').badge).toBeNull();
  });

  it('gives one token the same logo on two networks, told apart by the network badge', () => {
    const tron = currencyIcon({ symbol: 'USDT', network: 'TRC20', kind: 'crypto' }, '/');
    const ethereum = currencyIcon({ symbol: 'usdt', network: 'erc20', kind: 'crypto' }, '/');
    expect(tron.src).toBe(`${ICONS}/tokens/USDT.svg`);
    expect(ethereum.src).toBe(tron.src);
    expect(tron.badge).toBe(`${ICONS}/networks/tron.svg`);
    expect(ethereum.badge).toBe(`${ICONS}/networks/ethereum.svg`);
    // ETH moved to Arbitrum is badged, unlike ETH on Ethereum.
    expect(currencyIcon({ symbol: 'ETH', network: 'ARBITRUM' }, '/').badge).toBe(
      `${ICONS}/networks/arbitrum-one.svg`,
    );
  });

  it('draws Toncoin with the TON network logo (the set has no token icon for it)', () => {
    expect(currencyIcon({ symbol: 'TON', network: 'TON' }, '/')).toMatchObject({
      src: `${ICONS}/networks/ton.svg`,
      badge: null,
    });
  });

  it('gives cash and bank currencies a neutral sign, no logo and no flag', () => {
    expect(currencyIcon({ symbol: 'USD', network: null, kind: 'cash' }, '/')).toEqual({
      src: null,
      text: '$',
      badge: null,
    });
    expect(currencyIcon({ symbol: 'UAH', network: null, kind: 'fiat' }, '/').text).toBe('₴');
    // Where a query does not ask for the kind (the history), a known fiat ticker without a
    // network is still money, not a coin.
    expect(currencyIcon({ symbol: 'EUR', network: null }, '/')).toMatchObject({
      src: null,
      text: '€',
    });
    // A fiat currency with no sign of its own: its letters.
    expect(currencyIcon({ symbol: 'SEK', network: null, kind: 'fiat' }, '/').text).toBe('SE');
  });

  it('falls back to the ticker’s letters for a symbol the set does not cover', () => {
    expect(currencyIcon({ symbol: 'ZZZ', network: 'ZZZ', kind: 'crypto' }, '/')).toEqual({
      src: null,
      text: 'ZZ',
      badge: null,
    });
    // An unknown token keeps its network badge; a ticker of symbols only still shows something.
    expect(currencyIcon({ symbol: 'PEPE2', network: 'ERC20' }, '/')).toEqual({
      src: null,
      text: 'PE',
      badge: `${ICONS}/networks/ethereum.svg`,
    });
    expect(currencyIcon({ symbol: '$$', network: null, kind: 'crypto' }, '/').text).toBe('?');
  });

  it('puts the icons under the app’s base (the mini-app lives under /telegram-app/)', () => {
    expect(currencyIcon({ symbol: 'BTC' }, '/telegram-app/').src).toBe(
      `/telegram-app${ICONS}/tokens/BTC.svg`,
    );
  });
});
