import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { operatorsOffline, type DirectionWindowColumns } from '@app/shared/orders/deadlines';
import {
  isActionReason,
  isHoldCategory,
  type ActionReason,
  type HoldCategory,
} from '@app/shared/orders/vocabulary';

import { useLocalePath } from '#app/i18n/locale.ts';

import { CopyRow } from './copy-row.tsx';
import { Countdown, useMomentText, useNow } from './countdown.tsx';

/*
 * What an order's state says beyond its name (issue 10, docs/decisions/015-order-trust.md): the
 * operator's promise and the queue, the payment window, a hold, the user's decision, refunds
 * and expiry. The owner's page and the secret-link page both show them; only the owner's page
 * gets the actions (cancel at no cost, the payment choice).
 */

const FIVE_MINUTES_MS = 5 * 60_000;

/** The database's CHECK keeps these to the known values; anything else is shown as the default. */
export const asHoldCategory = (value: string | null | undefined): HoldCategory =>
  isHoldCategory(value) ? value : 'aml_review';
export const asActionReason = (value: string | null | undefined): ActionReason =>
  isActionReason(value) ? value : 'underpaid';

export interface OperatorWaitProps {
  dueAt: string;
  lateAt: string | null | undefined;
  queuePosition: number | null | undefined;
  /** The direction's working hours, when the page knows them. */
  window?: DirectionWindowColumns | null | undefined;
  /** The owner's page: cancel at no cost once the operator is late. */
  onCancel?: (() => void) | undefined;
  canceling?: boolean;
}

/** Waiting for the operator: the promise as a countdown, or the late notice; the queue; hours. */
export function OperatorWait({
  dueAt,
  lateAt,
  queuePosition,
  window,
  onCancel,
  canceling = false,
}: OperatorWaitProps) {
  const { t } = useTranslation('trust');
  const now = useNow(15_000);
  const offline = now === null ? null : operatorsOffline(window, new Date(now));
  return (
    <>
      <p>{t('exchange:transaction.waitingForOperator')}</p>
      {lateAt ? (
        <div className="notice notice--warning">
          <p>{t('deadlines.requisitesLate')}</p>
          {onCancel ? (
            <button
              type="button"
              className="button button--primary"
              onClick={onCancel}
              disabled={canceling}
              aria-busy={canceling || undefined}
            >
              {t('deadlines.cancelNoCost')}
            </button>
          ) : null}
        </div>
      ) : (
        <p className="deadline">
          <Countdown
            until={dueAt}
            fallback={(moment) => t('deadlines.requisitesBy', { time: moment })}
          >
            {(time) => t('deadlines.requisitesIn', { time })}
          </Countdown>
        </p>
      )}
      {queuePosition ? (
        <p>
          {queuePosition === 1
            ? t('deadlines.queueNext')
            : t('deadlines.queuePosition', { position: queuePosition })}
        </p>
      ) : null}
      {offline ? (
        <p className="notice">
          {t('deadlines.offline', { time: offline.time, offset: offline.offset })}
        </p>
      ) : null}
    </>
  );
}

/** Waiting for payment: the time left to pay, the moment itself, and why the wait never shortens it. */
export function PaymentDeadline({ payBy }: { payBy: string }) {
  const { t } = useTranslation('trust');
  const now = useNow();
  const moment = useMomentText(payBy);
  const left = now === null ? null : Date.parse(payBy) - now;
  return (
    <div className="deadline-box">
      <p className="deadline deadline--large">
        <Countdown until={payBy} fallback={(utc) => t('deadlines.payBy', { time: utc })}>
          {(time) => t('deadlines.payWithin', { time })}
        </Countdown>
      </p>
      <p suppressHydrationWarning>{t('deadlines.payBy', { time: moment })}</p>
      {left !== null && left > 0 && left < FIVE_MINUTES_MS ? (
        <p className="notice notice--warning">{t('deadlines.expiringSoon')}</p>
      ) : null}
      <p className="field__hint">{t('deadlines.payWindowStarts')}</p>
    </div>
  );
}

/** On hold: what is happening, why (the category) and what the user can do. */
export function HoldNotice({
  category,
  orderNumber,
}: {
  category: string | null | undefined;
  orderNumber: string | number;
}) {
  const { t } = useTranslation('trust');
  const localePath = useLocalePath();
  const kind = asHoldCategory(category);
  return (
    <div className="side-state side-state--hold">
      <h2>{t('hold.title')}</h2>
      <p>{t('hold.text')}</p>
      <p>
        <strong>{t(`hold.categories.${kind}`)}</strong>
      </p>
      <p>{t(`hold.whatToDo.${kind}`)}</p>
      <p>
        <Link
          to={`${localePath('/contact')}?${new URLSearchParams({ orderId: String(orderNumber) }).toString()}`}
        >
          {t('hold.contactSupport')}
        </Link>
      </p>
    </div>
  );
}

/** Why the order waits for the user: what arrived against what was expected. */
export function ActionReasonText({
  reason,
  received,
  expected,
}: {
  reason: string | null | undefined;
  received: string;
  expected: string;
}) {
  const { t } = useTranslation('trust');
  return <p>{t(`action.reasons.${asActionReason(reason)}`, { received, expected })}</p>;
}

/** Refund in progress or done; the refund's tx id with a copy button once sent. */
export function RefundNotice({
  done,
  amount,
  address,
  cash = false,
  txId,
  txExplorer,
}: {
  done: boolean;
  amount: string;
  /** Where the refund goes, when the page may show it. */
  address?: string | null | undefined;
  /** Paid in cash: returned at the cash point. */
  cash?: boolean;
  txId?: string | null | undefined;
  /** The refund's page on the block explorer (decision 042), when the network has one. */
  txExplorer?: string | undefined;
}) {
  const { t } = useTranslation('trust');
  if (done) {
    return (
      <div className="side-state">
        <h2>{t('refund.doneTitle')}</h2>
        <p>{t('refund.done')}</p>
        {txId ? <CopyRow label={t('refund.txId')} value={txId} explorer={txExplorer} /> : null}
      </div>
    );
  }
  return (
    <div className="side-state">
      <h2>{t('refund.inProgressTitle')}</h2>
      {cash ? (
        <p>{t('refund.inProgressCash')}</p>
      ) : address ? (
        <p className="break-anywhere">{t('refund.inProgress', { amount, address })}</p>
      ) : null}
    </div>
  );
}

/** Expired: no payment arrived in time, and what to do if one was sent. */
export function ExpiredNotice({ payBy }: { payBy: string | null | undefined }) {
  const { t } = useTranslation('trust');
  const moment = useMomentText(payBy);
  return (
    <div className="side-state">
      <h2>{t('expired.title')}</h2>
      <p suppressHydrationWarning>{t('expired.text', { time: moment })}</p>
    </div>
  );
}
