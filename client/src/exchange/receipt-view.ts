import { currencyLabel, explorerAddressUrl, explorerTxUrl, trimZeros } from '@app/shared/exchange';
import { LANGUAGE_TAGS, type Locale } from '@app/shared/i18n';

import type { TransactionReceiptQuery } from '../graphql/generated/user.ts';

/*
 * What a completed order's receipt shows (issue 10), display-ready, for the portal's receipt
 * page and the mini-app's receipt screen alike: the figures it was paid out at (the settlement
 * when the person continued with another amount, else the locked quote), the payout's
 * reference and where it went. Amounts stay decimal strings.
 */

export type ReceiptOrder = NonNullable<TransactionReceiptQuery['transactions_by_pk']>;

export interface ReceiptView {
  /** `0.015 BTC`. */
  sent: string;
  /** `1400.5 USDT (TRC20)`. */
  received: string;
  /** `1 BTC = 93366.6666 USDT`. */
  rate: string;
  /** The payout's reference is a bank's (fiat or IBAN payout), else a transaction id. */
  bankPayout: boolean;
  payoutTxId: string | null;
  /** The wallet address or IBAN, with the memo in brackets. */
  payoutTo: string | null;
  /** The payout's and the wallet's pages on the block explorer (decision 042), where known. */
  payoutTxUrl: string | undefined;
  payoutToUrl: string | undefined;
}

export function receiptView(order: ReceiptOrder): ReceiptView {
  const send = currencyLabel(order.send_currency, order.send_currency_info);
  const receive = currencyLabel(order.receive_currency, order.receive_currency_info);
  const paidOut = order.settled_receive_amount ?? order.receive_amount;
  const rate = order.settled_rate ?? order.rate;
  const to = order.wallet_address ?? order.iban;
  const bankPayout = order.receive_currency_info?.kind === 'fiat' || order.iban !== null;
  const network = bankPayout ? null : order.receive_currency_info?.network;
  return {
    sent: `${trimZeros(order.send_amount)} ${send}`,
    received: `${trimZeros(paidOut)} ${receive}`,
    rate: `1 ${order.send_currency_info?.symbol ?? order.send_currency} = ${trimZeros(rate)} ${
      order.receive_currency_info?.symbol ?? order.receive_currency
    }`,
    bankPayout,
    payoutTxId: order.payout_tx_id,
    payoutTo: to ? `${to}${order.payout_memo ? ` (${order.payout_memo})` : ''}` : null,
    payoutTxUrl: explorerTxUrl(network, order.payout_tx_id),
    payoutToUrl: explorerAddressUrl(network, order.wallet_address),
  };
}

/** A date and time in the page's language (`Nov 28, 2026, 12:30 PM`). */
export function formatDateTime(iso: string, locale: Locale): string {
  return new Date(iso).toLocaleString(LANGUAGE_TAGS[locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
}
