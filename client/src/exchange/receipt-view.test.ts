import { describe, expect, it } from 'vitest';

import { receiptView, type ReceiptOrder } from './receipt-view.ts';

const HASH = 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d';

const order = (overrides: Partial<ReceiptOrder>): ReceiptOrder =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    number: 100001,
    status: 'completed',
    created_at: '2026-11-28T12:00:00Z',
    completed_at: '2026-11-28T12:30:00Z',
    send_currency: 'BTC',
    send_amount: '0.05000000',
    receive_currency: 'USDTTRC20',
    receive_amount: '4662.014563',
    rate: '93240.29126',
    settled_receive_amount: null,
    settled_rate: null,
    payout_tx_id: HASH,
    wallet_address: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
    iban: null,
    payout_memo: null,
    send_currency_info: { symbol: 'BTC', network: 'BTC' },
    receive_currency_info: { symbol: 'USDT', network: 'TRC20', kind: 'crypto' },
    ...overrides,
  }) as ReceiptOrder;

describe('receiptView explorer links (decision 042)', () => {
  it('links a crypto payout and its wallet on the receive currency’s network', () => {
    const view = receiptView(order({}));
    expect(view.payoutTxUrl).toBe(`https://tronscan.org/#/transaction/${HASH}`);
    expect(view.payoutToUrl).toBe(
      'https://tronscan.org/#/address/TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
    );
  });

  it('links nothing for a bank payout, or a tx id the chain could not have', () => {
    const bank = receiptView(
      order({
        receive_currency: 'EUR',
        receive_currency_info: { symbol: 'EUR', network: null, kind: 'fiat' },
        wallet_address: null,
        iban: 'DE89370400440532013000',
        payout_tx_id: 'SEPA-REF-1',
      }),
    );
    expect(bank.payoutTxUrl).toBeUndefined();
    expect(bank.payoutToUrl).toBeUndefined();
    expect(receiptView(order({ payout_tx_id: 'see the bank' })).payoutTxUrl).toBeUndefined();
  });
});
