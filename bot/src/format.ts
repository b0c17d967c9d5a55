import { resources, type Locale } from '@app/shared/i18n';
import { trimZeros } from '@app/web/app/exchange/amounts.ts';
import { currencyLabel } from '@app/web/app/exchange/currency-label.ts';

import type { OrderSummary } from './db.ts';

/** `0.1 BTC`, `9324.02 USDT (TRC20)`: an order's side as the portal writes it. */
export const sendText = (order: OrderSummary): string =>
  `${trimZeros(order.send_amount)} ${currencyLabel(order.send_currency, { symbol: order.send_symbol, network: order.send_network })}`;

export const receiveText = (order: OrderSummary): string =>
  `${trimZeros(order.receive_amount)} ${currencyLabel(order.receive_currency, { symbol: order.receive_symbol, network: order.receive_network })}`;

/** The status's name, as the order page shows it. */
export function statusText(locale: Locale, status: string): string {
  const names = resources[locale].exchange.transaction.statuses as Record<string, string>;
  return names[status] ?? status;
}
