import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Cell, List, Placeholder, Section } from '@telegram-apps/telegram-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';

import type { Locale } from '@app/shared/i18n';
import {
  formatDateTime,
  receiptView,
  type ReceiptOrder,
} from '@app/client/exchange/receipt-view.ts';
import {
  OrderReceiptLinkDocument,
  TransactionReceiptDocument,
} from '@app/client/graphql/generated/user.ts';

import { ExplorerCell } from '../components/explorer-cell.tsx';
import { CenteredSpinner } from '../components/shell.tsx';
import { LoadFailed } from '../components/states.tsx';
import { LiveData } from '../graphql/live-data.tsx';
import { downloadInTelegram, haptic } from '../telegram/sdk.ts';

import '../order/order.css';
import './account.css';

/*
 * /telegram-app/transaction/{id}/receipt (issue 22): a completed order's receipt inside the app,
 * with what the portal's receipt page shows (client/src/exchange/receipt-view.ts). Its PDF goes
 * through Telegram's own download: Telegram fetches the file itself, without this session, so
 * the app first asks for a 10-minute address of it (`orderReceiptLink`, decision 036).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function ReceiptScreen() {
  const { id = '' } = useParams();
  return (
    <LiveData>
      <Receipt id={id.toLowerCase()} />
    </LiveData>
  );
}

function Receipt({ id }: { id: string }) {
  const { t } = useTranslation('trust');
  const valid = UUID.test(id);
  const { data, loading, error, refetch } = useQuery(TransactionReceiptDocument, {
    variables: { id },
    skip: !valid,
  });
  if (valid && loading && !data) return <CenteredSpinner />;
  if (valid && error && !data) return <LoadFailed onRetry={() => void refetch()} />;
  const order = data?.transactions_by_pk;
  if (!order || order.status !== 'completed') {
    return (
      <div className="centered">
        <Placeholder
          header={<h1 className="placeholder-title">{t('receipt.title')}</h1>}
          description={order ? t('receipt.notCompleted') : t('exchange:transaction.notFound')}
          action={
            order ? (
              <Link href={`/transaction/${order.id}`} className="cell-link">
                {t('exchange:transaction.title', { number: order.number })}
              </Link>
            ) : undefined
          }
        />
      </div>
    );
  }
  return <ReceiptSheet order={order} />;
}

type DownloadState = 'idle' | 'pending' | 'started' | 'declined' | 'failed';

function ReceiptSheet({ order }: { order: ReceiptOrder }) {
  const { t, i18n } = useTranslation('trust');
  const view = receiptView(order);
  const [requestLink] = useMutation(OrderReceiptLinkDocument);
  const [download, setDownload] = useState<DownloadState>('idle');

  const onDownload = async () => {
    if (download === 'pending') return;
    setDownload('pending');
    let link: { url: string; filename: string } | undefined;
    try {
      link =
        (await requestLink({ variables: { id: order.id } })).data?.orderReceiptLink ?? undefined;
    } catch {
      // Reported below as a failure.
    }
    if (!link) {
      haptic.error();
      setDownload('failed');
      return;
    }
    try {
      await downloadInTelegram(link.url, link.filename);
      setDownload('started');
    } catch {
      // The person said no to Telegram's download prompt.
      setDownload('declined');
    }
  };

  const message =
    download === 'started'
      ? t('miniapp:receipt.downloadStarted')
      : download === 'declined'
        ? t('miniapp:receipt.downloadDeclined')
        : download === 'failed'
          ? t('common:notify.somethingWentWrong')
          : null;

  return (
    <List>
      <h1 className="screen-title">{t('receipt.title')}</h1>
      <Section>
        <Cell subhead={t('receipt.order')}>{order.number}</Cell>
        {order.completed_at ? (
          <Cell subhead={t('receipt.date')}>
            <time dateTime={order.completed_at}>
              {formatDateTime(order.completed_at, i18n.language as Locale)}
            </time>
          </Cell>
        ) : null}
        <Cell subhead={t('receipt.sent')}>{view.sent}</Cell>
        <Cell subhead={t('receipt.received')}>{view.received}</Cell>
        <Cell subhead={t('receipt.rate')}>{view.rate}</Cell>
        {view.payoutTxId ? (
          <Cell
            multiline
            subhead={view.bankPayout ? t('receipt.bankReference') : t('receipt.payoutTx')}
          >
            <span className="receipt-value">{view.payoutTxId}</span>
          </Cell>
        ) : null}
        <ExplorerCell href={view.payoutTxUrl} label={t('receipt.payoutTx')} />
        {view.payoutTo ? (
          <Cell multiline subhead={t('receipt.payoutTo')}>
            <span className="receipt-value">{view.payoutTo}</span>
          </Cell>
        ) : null}
      </Section>
      <div className="state-actions">
        <Button
          mode="filled"
          size="l"
          stretched
          loading={download === 'pending'}
          onClick={() => void onDownload()}
        >
          {t('receipt.download')}
        </Button>
      </div>
      <p
        className={download === 'failed' ? 'form-error' : 'form-message'}
        role={download === 'failed' ? 'alert' : 'status'}
      >
        {message}
      </p>
    </List>
  );
}
