import { useMutation, useQuery } from '@apollo/client/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import {
  StaffOrdersPendingWithdrawalsDocument,
  StaffOrdersProcessWithdrawalDocument,
  type StaffOrdersPendingWithdrawalsQuery,
} from '@app/client/graphql/generated/manager.ts';

import { DataTable } from '#app/account/data-table.tsx';
import {
  formatAmount,
  formatDateTime,
  PAGE_SIZE,
  pageCount,
  pageFromSearch,
} from '#app/account/format.ts';
import { Pagination } from '#app/account/pagination.tsx';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { InputField, TextAreaField } from '#app/admin/fields.tsx';
import { EmptyState, LoadFailed, Loading } from '#app/admin/states.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale } from '#app/i18n/locale.ts';

import { actionErrorMessage } from './action-error.ts';
import { ExportButton } from './export-button.tsx';
import {
  duplicateWarningOf,
  DuplicateTxWarning,
  warnsAbout,
  type DuplicateWarning,
} from './duplicate-tx.tsx';

type Withdrawal = StaffOrdersPendingWithdrawalsQuery['bonus_withdrawals'][number];
type Outcome = 'paid' | 'rejected';

/** New requests appear without a reload: the list is read again this often. */
const POLL_MS = 30_000;

const customerOf = (withdrawal: Withdrawal): string =>
  withdrawal.user?.email ??
  (withdrawal.user?.telegram_username ? `@${withdrawal.user.telegram_username}` : '—');

/**
 * Affiliate bonus withdrawals waiting for staff, oldest first (`?page=N`): approve one as paid
 * with the payout's transaction id, or reject it with a reason (the amount returns to the
 * customer's balance), each through the confirm dialog (`processBonusWithdrawal`).
 */
export function WithdrawalsView() {
  const { t } = useTranslation('staffOrders');
  const locale = useLocale();
  const [searchParams] = useSearchParams();
  const page = pageFromSearch(searchParams);
  const list = useQuery(StaffOrdersPendingWithdrawalsDocument, {
    variables: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    pollInterval: POLL_MS,
    notifyOnNetworkStatusChange: false,
  });
  const [process] = useMutation(StaffOrdersProcessWithdrawalDocument);

  const [target, setTarget] = useState<{ withdrawal: Withdrawal; outcome: Outcome } | null>(null);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  // The action's warning that the tx id is recorded elsewhere (decision 044).
  const [duplicate, setDuplicate] = useState<DuplicateWarning | null>(null);
  const shown = useRef(target);
  shown.current = target;

  const open = (withdrawal: Withdrawal, outcome: Outcome) => {
    setValue('');
    setFieldError(undefined);
    setFailure(undefined);
    setDuplicate(null);
    setTarget({ withdrawal, outcome });
  };

  const run = async () => {
    if (!target) return;
    const text = value.trim();
    if (!text) {
      setFieldError(t('errors.required'));
      return;
    }
    setFieldError(undefined);
    setFailure(undefined);
    setPending(true);
    const { withdrawal, outcome } = target;
    const amount = formatAmount(withdrawal.amount_usdt, locale);
    try {
      await process({
        variables:
          outcome === 'paid'
            ? {
                id: withdrawal.id,
                outcome,
                payoutTxId: text,
                ...(warnsAbout(duplicate, text) ? { allowDuplicateTxId: true } : {}),
              }
            : { id: withdrawal.id, outcome, reason: text },
      });
      notify.success(
        outcome === 'paid'
          ? t('withdrawals.approved', { amount })
          : t('withdrawals.rejected', { amount }),
      );
      setPending(false);
      setTarget(null);
      void list.refetch().catch(() => undefined);
    } catch (error) {
      setPending(false);
      const warning = outcome === 'paid' ? duplicateWarningOf(error, text) : null;
      if (warning && shown.current !== null) {
        setDuplicate(warning);
        return;
      }
      const message = actionErrorMessage(error, t);
      if (shown.current === null) notify.error(message);
      else setFailure(message);
      void list.refetch().catch(() => undefined);
    }
  };

  const data = list.data ?? list.previousData;
  let content;
  if (list.error && !data)
    content = <LoadFailed message={t('loadFailed')} className="staff-orders__error" />;
  else if (!data) content = <Loading className="staff-orders__loading" />;
  else {
    const total = data.bonus_withdrawals_aggregate.aggregate?.count ?? 0;
    const sum = data.bonus_withdrawals_aggregate.aggregate?.sum?.amount_usdt ?? '0';
    const rows = data.bonus_withdrawals;
    content = (
      <>
        {total > 0 ? (
          <p className="staff-orders__muted">
            {t('withdrawals.summary', { total, sum: formatAmount(sum, locale) })}
          </p>
        ) : null}
        {rows.length === 0 ? (
          page > 1 ? (
            <EmptyState title={t('queue.pageEmpty')}>
              <Link className="button" to={{ search: 'view=withdrawals' }}>
                {t('queue.firstPage')}
              </Link>
            </EmptyState>
          ) : (
            <EmptyState title={t('withdrawals.empty')} />
          )
        ) : (
          <DataTable
            caption={t('withdrawals.caption')}
            columns={[
              { id: 'requested', label: t('withdrawals.requested') },
              { id: 'customer', label: t('withdrawals.customer') },
              { id: 'amount', label: t('withdrawals.amount') },
              { id: 'wallet', label: t('withdrawals.wallet') },
              { id: 'actions', label: t('withdrawals.actions') },
            ]}
            rows={rows.map((withdrawal) => {
              const amount = formatAmount(withdrawal.amount_usdt, locale);
              const customer = customerOf(withdrawal);
              return {
                key: withdrawal.id,
                cells: [
                  <time key="requested" dateTime={withdrawal.created_at}>
                    {formatDateTime(withdrawal.created_at, locale)}
                  </time>,
                  customer,
                  `${amount} USDT`,
                  <span key="wallet" className="mono">
                    {withdrawal.wallet_address}
                  </span>,
                  <span key="actions" className="staff-orders__row-actions">
                    <button
                      type="button"
                      className="button button--small button--primary"
                      aria-label={t('withdrawals.approveLabel', { amount, customer })}
                      onClick={() => open(withdrawal, 'paid')}
                    >
                      {t('withdrawals.approve')}
                    </button>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      aria-label={t('withdrawals.rejectLabel', { amount, customer })}
                      onClick={() => open(withdrawal, 'rejected')}
                    >
                      {t('withdrawals.reject')}
                    </button>
                  </span>,
                ],
              };
            })}
          />
        )}
        {total > PAGE_SIZE || page > 1 ? (
          <Pagination page={page} pages={pageCount(total)} total={total} />
        ) : null}
      </>
    );
  }

  const amount = target ? formatAmount(target.withdrawal.amount_usdt, locale) : '';
  const customer = target ? customerOf(target.withdrawal) : '';
  const paid = target?.outcome === 'paid';
  const warned = paid && warnsAbout(duplicate, value);
  return (
    <section className="staff-orders__withdrawals" aria-labelledby="withdrawals-title">
      <h2 id="withdrawals-title">{t('withdrawals.title')}</h2>
      <ExportButton section="withdrawals" />
      {content}
      <ConfirmDialog
        open={target !== null}
        title={
          target
            ? paid
              ? t('withdrawals.approveTitle', { amount, customer })
              : t('withdrawals.rejectTitle', { amount })
            : ''
        }
        description={
          target
            ? paid
              ? t('withdrawals.approveText', { amount, wallet: target.withdrawal.wallet_address })
              : t('withdrawals.rejectText', { customer })
            : undefined
        }
        confirmLabel={
          warned
            ? t('duplicateTx.recordAnyway')
            : paid
              ? t('withdrawals.approve')
              : t('withdrawals.reject')
        }
        danger={!paid}
        pending={pending}
        error={failure}
        onConfirm={() => void run()}
        onClose={() => setTarget(null)}
      >
        {target ? (
          paid ? (
            <InputField
              id="withdrawal-action-value"
              required
              label={t('withdrawals.payoutTxId')}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              error={fieldError}
              maxLength={256}
              spellCheck={false}
            />
          ) : (
            <TextAreaField
              id="withdrawal-action-value"
              required
              label={t('withdrawals.rejectReason')}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              error={fieldError}
              rows={3}
              autoComplete="off"
              maxLength={500}
            />
          )
        ) : null}
        {warned && duplicate ? <DuplicateTxWarning warning={duplicate} /> : null}
      </ConfirmDialog>
    </section>
  );
}
