import { resources, type Locale } from '@app/shared/i18n';
import { currencyLabel, trimZeros } from '@app/shared/exchange';

import type { OrderSummary } from './db.ts';

/** `0.1 BTC`, `9324.02 USDT (TRC20)`: an order's side as the portal writes it. */
export const sendText = (order: OrderSummary): string => sendAmountText(order, order.send_amount);

export const receiveText = (order: OrderSummary): string =>
  `${trimZeros(order.receive_amount)} ${currencyLabel(order.receive_currency, { symbol: order.receive_symbol, network: order.receive_network })}`;

/**
 * The status's name, as the order page shows it: the five of the spec, then the side states of
 * decision 015 (on hold, your action needed, refund in progress, refunded, expired).
 */
export function statusText(locale: Locale, status: string): string {
  const names: Record<string, string> = {
    ...resources[locale].exchange.transaction.statuses,
    ...resources[locale].trust.statuses,
  };
  return Object.hasOwn(names, status) ? names[status]! : status;
}

/** An amount of the order's send currency, e.g. a payment that arrived: `0.014 BTC`. */
export const sendAmountText = (order: OrderSummary, amount: string): string =>
  `${trimZeros(amount)} ${currencyLabel(order.send_currency, { symbol: order.send_symbol, network: order.send_network })}`;
