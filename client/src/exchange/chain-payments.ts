import type { TFunction } from 'i18next';

import type { TransactionSubscription } from '@app/client/graphql/generated/user.ts';
import { explorerTxUrl } from '@app/shared/exchange';
import { formatDecimal, type Locale } from '@app/shared/i18n';

/*
 * What the order page and the mini-app show of the payments a chain watcher saw to the order's
 * deposit address (issue 25): "Payment seen: 0.015 ETH, 1 of 3 confirmations" with a link to
 * the transaction, live with the order's subscription. One line per transfer, oldest first.
 */

type Order = NonNullable<TransactionSubscription['transactions_by_pk']>;

export interface ChainPaymentLine {
  id: string;
  state: 'seen' | 'confirmed' | 'dropped';
  text: string;
  /** The explorer's page of the transaction, when the network has one. */
  href: string | undefined;
  confirmations: number;
  required: number;
}

export function chainPaymentLines(
  order: Order,
  t: TFunction<'trust'>,
  locale: Locale,
): ChainPaymentLine[] {
  return (order.chain_payments ?? []).map((payment) => {
    const symbol =
      payment.currency_code === order.send_currency
        ? (order.send_currency_info?.symbol ?? payment.currency_code)
        : payment.currency_code;
    const state = payment.state as ChainPaymentLine['state'];
    return {
      id: payment.id,
      state,
      text: t(`chain.${state}`, {
        amount: `${formatDecimal(payment.amount, locale)} ${symbol}`,
        confirmations: Math.min(payment.confirmations, payment.confirmations_required),
        required: payment.confirmations_required,
      }),
      href: state === 'dropped' ? undefined : explorerTxUrl(payment.network, payment.tx_hash),
      confirmations: payment.confirmations,
      required: payment.confirmations_required,
    };
  });
}
