import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  botChatLink,
  buildStartParam,
  parseStartParam,
  START_PARAM_MAX_LENGTH,
} from './start-param.ts';

const ORDER_ID = '3f2a9c4e-1b7d-4e2a-9c3b-8d1e5f6a7b8c';

describe('deep link payload', () => {
  it('reads an order, a pair and a referral in any order', () => {
    expect(parseStartParam(`ref_alice__order_${ORDER_ID}`)).toEqual({
      referralCode: 'alice',
      orderId: ORDER_ID,
    });
    expect(parseStartParam('pair_btc-to-usdttrc20__ref_Bob42')).toEqual({
      pair: { from: 'BTC', to: 'USDTTRC20' },
      referralCode: 'Bob42',
    });
  });

  it('ignores what it does not know and what is malformed', () => {
    expect(parseStartParam('')).toEqual({});
    expect(parseStartParam(undefined)).toEqual({});
    expect(parseStartParam('ref_ab')).toEqual({});
    expect(parseStartParam('ref_this-is-not-alnum__order_123')).toEqual({});
    expect(parseStartParam(`promo_x__order_${ORDER_ID.toUpperCase()}`)).toEqual({
      orderId: ORDER_ID,
    });
    expect(parseStartParam(`ref_alice__${'x'.repeat(START_PARAM_MAX_LENGTH)}`)).toEqual({});
  });

  it('builds what it parses, within Telegram alphabet and length', () => {
    const names = fc.stringMatching(/^[A-Za-z0-9]{3,20}$/);
    const codes = fc.stringMatching(/^[A-Z0-9]{2,16}$/);
    fc.assert(
      fc.property(
        fc.record(
          {
            referralCode: names,
            orderId: fc.uuid(),
            pair: fc.record({ from: codes, to: codes }),
          },
          { requiredKeys: [] },
        ),
        (param) => {
          const built = buildStartParam(param);
          expect(built).toMatch(/^[A-Za-z0-9_-]*$/);
          expect(built.length).toBeLessThanOrEqual(START_PARAM_MAX_LENGTH);
          expect(parseStartParam(built)).toEqual(param);
        },
      ),
    );
  });

  it('links the bot’s private chat with a /start payload', () => {
    expect(botChatLink('exchange_bot')).toBe('https://t.me/exchange_bot');
    expect(botChatLink('exchange_bot', buildStartParam({ referralCode: 'alice' }))).toBe(
      'https://t.me/exchange_bot?start=ref_alice',
    );
  });
});
