import { useQuery } from '@apollo/client/react';
import { Button, Cell, Text } from '@telegram-apps/telegram-ui';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';

import { formatMoney, type Locale } from '@app/shared/i18n';
import { explorerTxUrl, formatRateIn } from '@app/shared/exchange';
import { AntiPhishingPhraseDocument } from '@app/client/graphql/generated/user.ts';

import { CopyCell } from '../components/copy-cell.tsx';
import { ExplorerCell } from '../components/explorer-cell.tsx';
import { receiptPath, SETTINGS_PATH } from '../paths.ts';
import { useSession } from '../session.ts';

import { Countdown, useNow } from './countdown.tsx';
import './order.css';
import { EXPIRING_SOON_MS, formatMoment, operatorsOffline } from '@app/shared/orders/deadlines';
import { isHoldCategory } from '@app/shared/orders/vocabulary';
import type { Order } from './types.ts';
import { openWebPage, webPages } from './web-links.ts';

/*
 * What the order screen says about deadlines and side states (issue 10,
 * docs/decisions/015-order-trust.md), in the shared `trust` texts.
 */

/** `0.0100 BTC` → `0.01 BTC` (`0,01 BTC` in Russian and Ukrainian). */
export const amountText = (amount: string, currency: string, locale: Locale): string =>
  formatMoney(amount, currency, locale);

function useLocale(): Locale {
  const { i18n } = useTranslation();
  return i18n.language as Locale;
}

/**
 * Waiting for the operator: the promise as a countdown (or, once broken, the late notice), the
 * order's place in the queue, and when operators are offline, when they come back.
 */
export function OperatorWait({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const late = order.requisites_late_at !== null;
  return (
    <>
      {late ? (
        <Text className="notice notice--warning" role="status">
          {t('deadlines.requisitesLate')}
        </Text>
      ) : (
        <Text className="deadline">
          <Countdown until={order.requisites_due_at}>
            {(time, { overdue }) =>
              // Past the promise, until the deadlines job marks the order late (within a minute).
              overdue
                ? t('deadlines.requisitesBy', {
                    time: formatMoment(order.requisites_due_at, locale),
                  })
                : t('deadlines.requisitesIn', { time })
            }
          </Countdown>
        </Text>
      )}
      {order.queue_position !== null ? (
        <Text className="state-text">
          {order.queue_position <= 1
            ? t('deadlines.queueNext')
            : t('deadlines.queuePosition', { position: order.queue_position })}
        </Text>
      ) : null}
      <OperatorsOffline order={order} />
    </>
  );
}

/** "Operators are offline now…", while the direction's daily window is closed. */
function OperatorsOffline({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  // The window opens or closes on a minute; a check every 15 seconds is soon enough.
  const now = useNow(15_000);
  const offline = operatorsOffline(order.direction, new Date(now));
  if (!offline) return null;
  return (
    <Text className="notice" role="status">
      {t('deadlines.offline', { time: offline.time, offset: offline.offset })}
    </Text>
  );
}

/** The payment window: "Pay within 29:41", the absolute deadline, and why it is fair. */
export function PaymentDeadline({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  if (!order.pay_by) return null;
  const payBy = formatMoment(order.pay_by, locale);
  return (
    <>
      <div className="deadline">
        <Countdown until={order.pay_by} warnMs={EXPIRING_SOON_MS} className="deadline__left">
          {(time, { warning, overdue }) => (
            <>
              {overdue ? null : (
                <span className="deadline__main">{t('deadlines.payWithin', { time })}</span>
              )}
              {warning ? (
                <span className="deadline__warning">{t('deadlines.expiringSoon')}</span>
              ) : null}
            </>
          )}
        </Countdown>
        <span className="deadline__at">{t('deadlines.payBy', { time: payBy })}</span>
      </div>
      <Text className="state-text hint">{t('deadlines.payWindowStarts')}</Text>
    </>
  );
}

/** The operator was late, so the order was re-quoted in the user's favour. */
export function RequotedNotice({ order, receive }: { order: Order; receive: string }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  if (!order.requoted_at || !order.quoted_receive_amount) return null;
  return (
    <Text className="notice" role="status">
      {t('deadlines.requoted', {
        amount: amountText(order.receive_amount, receive, locale),
        quoted: amountText(order.quoted_receive_amount, receive, locale),
      })}
    </Text>
  );
}

/**
 * The person's anti-phishing phrase, in a cell of its own right above the payment details: a
 * copy of this screen elsewhere cannot show it. Without one, how to set it (the app's settings:
 * an account made by Telegram sign-in cannot sign in to the portal's).
 */
export function AntiPhishingPhrase() {
  const { t } = useTranslation('trust');
  const [, navigate] = useLocation();
  const userId = useSession((state) => state.user?.id ?? null);
  const { data, loading } = useQuery(AntiPhishingPhraseDocument, {
    variables: { userId: userId ?? '' },
    skip: userId === null,
    fetchPolicy: 'cache-and-network',
  });
  const phrase = data?.portal_users_by_pk?.anti_phishing_phrase ?? null;
  if (loading && !data) return null;
  if (phrase) {
    return (
      <div className="phishing">
        <Cell multiline subhead={t('phishing.label')} className="phishing__cell">
          <span className="phishing__phrase">{phrase}</span>
        </Cell>
        <Text className="state-text hint">{t('phishing.shownNext')}</Text>
      </div>
    );
  }
  return (
    <div className="phishing phishing--unset">
      <Text className="state-text">{t('phishing.notSet')}</Text>
      <Button
        mode="plain"
        size="s"
        className="phishing__set"
        onClick={() => navigate(SETTINGS_PATH)}
      >
        {t('phishing.setIt')}
      </Button>
    </div>
  );
}

/** The payment is held for a compliance review: why, and what the person can do. */
export function OnHold({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const category = isHoldCategory(order.hold_category) ? order.hold_category : null;
  return (
    <>
      <h2 className="state-title">{t('hold.title')}</h2>
      <Text className="state-text">{t('hold.text')}</Text>
      {category ? (
        <>
          <Text className="state-text">{t(`hold.categories.${category}`)}</Text>
          <Text className="state-text state-text--strong">{t(`hold.whatToDo.${category}`)}</Text>
        </>
      ) : null}
      <div className="state-actions">
        <Button
          mode="bezeled"
          size="m"
          stretched
          onClick={() => openWebPage(webPages.contact, locale)}
        >
          {t('hold.contactSupport')}
        </Button>
      </div>
    </>
  );
}

/** The payment window closed without a payment. */
export function Expired({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const deadline = order.pay_by ?? order.expired_at;
  return (
    <>
      <h2 className="state-title">{t('expired.title')}</h2>
      <Text className="state-text">
        {t('expired.text', { time: deadline ? formatMoment(deadline, locale) : '' })}
      </Text>
    </>
  );
}

/** The funds are on their way back (or waiting at the cash point). */
export function RefundInProgress({ order, send }: { order: Order; send: string }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  const cash = order.send_currency_info?.kind === 'cash';
  const amount = amountText(order.received_amount ?? order.send_amount, send, locale);
  return (
    <>
      <h2 className="state-title">{t('refund.inProgressTitle')}</h2>
      <Text className="state-text">
        {cash || !order.refund_address
          ? t('refund.inProgressCash')
          : t('refund.inProgress', { amount, address: order.refund_address })}
      </Text>
      {order.refund_memo ? (
        <CopyCell label={t('exchange:transaction.depositMemo')} value={order.refund_memo} />
      ) : null}
    </>
  );
}

/** The refund was sent: its transaction id or bank reference, to copy. */
export function Refunded({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  return (
    <>
      <h2 className="state-title">{t('refund.doneTitle')}</h2>
      <Text className="state-text">{t('refund.done')}</Text>
      {order.refund_tx_id ? (
        <>
          <CopyCell label={t('refund.txId')} value={order.refund_tx_id} />
          <ExplorerCell
            href={explorerTxUrl(order.send_currency_info?.network, order.refund_tx_id)}
            label={t('refund.txId')}
          />
        </>
      ) : null}
    </>
  );
}

/** The person continued at the current rate with what arrived: the figures it is paid at. */
export function Settled({ order, receive }: { order: Order; receive: string }) {
  const { t } = useTranslation('trust');
  const locale = useLocale();
  if (!order.settled_receive_amount || !order.settled_rate) return null;
  return (
    <Text className="state-text">
      {t('action.settled', {
        amount: amountText(order.settled_receive_amount, receive, locale),
        rate: formatRateIn(order.settled_rate, locale),
      })}
    </Text>
  );
}

/** A completed order's receipt, in the app (its PDF through Telegram's download). */
export function ReceiptButton({ order }: { order: Order }) {
  const { t } = useTranslation('trust');
  const [, navigate] = useLocation();
  return (
    <div className="state-actions">
      <Button mode="bezeled" size="m" stretched onClick={() => navigate(receiptPath(order.id))}>
        {t('receipt.open')}
      </Button>
    </div>
  );
}
