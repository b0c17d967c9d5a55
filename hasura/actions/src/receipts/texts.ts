import { resources, type Locale } from '@app/shared/i18n';
import { serverT } from '@app/shared/i18n/server';

/*
 * The receipt's words per order locale (transactions.locale). The labels the web portal's
 * receipt page shows come from its catalog (trust.receipt, common.brand), so the PDF and the
 * page say the same; the few the page has no key for are the server catalog's (receipt).
 */

export interface ReceiptTexts {
  /** The service's name. */
  brand: string;
  title: string;
  order: string;
  completed: string;
  sent: string;
  received: string;
  rate: string;
  payoutTx: string;
  bankReference: string;
  cashReference: string;
  payoutTo: string;
  memo: string;
  orderId: string;
  cash: string;
  /** The line under the figures. */
  footer: string;
}

export function receiptTexts(locale: Locale): ReceiptTexts {
  const catalog = resources[locale];
  const receipt = catalog.trust.receipt;
  const own = serverT(locale, 'receipt');
  return {
    brand: catalog.common.brand,
    title: receipt.title,
    order: receipt.order,
    completed: receipt.date,
    sent: receipt.sent,
    received: receipt.received,
    rate: receipt.rate,
    payoutTx: receipt.payoutTx,
    bankReference: receipt.bankReference,
    payoutTo: receipt.payoutTo,
    cashReference: own('cashReference'),
    memo: own('memo'),
    orderId: own('orderId'),
    cash: own('cash'),
    footer: own('footer'),
  };
}
