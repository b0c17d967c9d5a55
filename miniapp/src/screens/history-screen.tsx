import { Button, Cell, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';

import { currencyLabel, trimZeros } from '@app/shared/exchange';
import { asOrderStatus } from '@app/shared/orders/status';
import {
  TransactionsHistoryCountDocument,
  TransactionsHistoryPageDocument,
} from '@app/client/graphql/generated/user.ts';
import { useSubscription } from '@app/client/graphql/use-subscription.ts';
import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';
import { formatDate, type Locale } from '@app/shared/i18n';

import { CenteredSpinner } from '../components/shell.tsx';
import { LoadFailed } from '../components/states.tsx';
import { StatusChip } from '../components/status-chip.tsx';
import { useMainButton } from '../components/use-main-button.ts';
import { repeatPath } from '../exchange/repeat.ts';
import { LiveData } from '../graphql/live-data.tsx';

/** Orders a page shows; "Show more" adds as many again. */
const PAGE_SIZE = 20;

/** /telegram-app/transactions-history: the person's orders, live, newest first, with Repeat. */
export function HistoryScreen() {
  return (
    <LiveData>
      <History />
    </LiveData>
  );
}

function History() {
  const { t, i18n } = useTranslation('account');
  const [, navigate] = useLocation();
  const [limit, setLimit] = useState(PAGE_SIZE);
  const rows = useSubscription(TransactionsHistoryPageDocument, { limit, offset: 0 });
  const count = useSubscription(TransactionsHistoryCountDocument, {});
  const total =
    count.status === 'live' ? (count.data.transactions_aggregate.aggregate?.count ?? 0) : undefined;

  useMainButton({ text: t('miniapp:nav.newExchange'), enabled: true, loading: false }, () =>
    navigate('/'),
  );

  if (rows.status === 'loading') return <CenteredSpinner />;
  if (rows.status === 'error') return <LoadFailed onRetry={() => window.location.reload()} />;

  const orders = rows.data.transactions;
  const locale = i18n.language as Locale;
  return (
    <List>
      <h1 className="screen-title">
        {total === undefined ? t('history.title') : t('history.titleWithCount', { count: total })}
      </h1>
      {orders.length === 0 ? (
        <Placeholder header={t('history.empty')} description={t('miniapp:nav.historyEmptyHint')} />
      ) : (
        <Section>
          <ul className="history" aria-label={t('history.caption')}>
            {orders.map((order) => {
              const send = `${trimZeros(order.send_amount)} ${currencyLabel(order.send_currency, order.send_currency_info)}`;
              const receive = `${trimZeros(order.receive_amount)} ${currencyLabel(order.receive_currency, order.receive_currency_info)}`;
              return (
                <li key={order.id} className="history__row">
                  <Link href={`/transaction/${order.id}`} className="cell-link">
                    <Cell
                      Component="span"
                      // The received amount wraps beside a long status chip instead of being cut.
                      multiline
                      subhead={`№ ${order.number} · ${formatDate(order.created_at, locale)}`}
                      description={
                        <>
                          →{' '}
                          <CurrencyIcon
                            currency={
                              order.receive_currency_info ?? { symbol: order.receive_currency }
                            }
                            size={18}
                          />{' '}
                          {receive}
                        </>
                      }
                      after={<StatusChip status={asOrderStatus(order.status)} />}
                    >
                      <CurrencyIcon
                        currency={order.send_currency_info ?? { symbol: order.send_currency }}
                        size={20}
                      />{' '}
                      {send}
                    </Cell>
                  </Link>
                  <Button
                    mode="bezeled"
                    size="s"
                    className="history__repeat"
                    aria-label={t('history.repeatLabel', { number: order.number })}
                    onClick={() => navigate(repeatPath(order))}
                  >
                    {t('history.repeat')}
                  </Button>
                </li>
              );
            })}
          </ul>
          {total !== undefined && orders.length < total ? (
            <Button
              mode="plain"
              size="m"
              stretched
              onClick={() => setLimit((value) => value + PAGE_SIZE)}
            >
              {t('pagination.next')}
            </Button>
          ) : null}
        </Section>
      )}
    </List>
  );
}
