import { useMutation } from '@apollo/client/react';
import { useTranslation } from 'react-i18next';

import {
  StaffOrdersCancelDocument,
  StaffOrdersCompleteDocument,
  StaffOrdersCompleteRefundDocument,
  StaffOrdersConfirmPaymentDocument,
  StaffOrdersHoldDocument,
  StaffOrdersReleaseHoldDocument,
  StaffOrdersSupplyRequisitesDocument,
} from '@app/client/graphql/generated/manager.ts';

import type { ActionFields, DetailOrder } from './action-fields.ts';
import type { ReceivedCheck, Step } from './order-steps.ts';
import { reasonLabel } from './statuses.ts';

/**
 * Runs an operator's step on the order through its action, and answers the notification that
 * says where the order went (each action answers the order's new status). Failures throw, for
 * the dialog to show.
 */
export function useRunStep(
  order: DetailOrder,
  byAddress: boolean,
): (
  action: Step,
  fields: ActionFields,
  received: ReceivedCheck | null,
  /** Record the tx id although the action warned it is recorded elsewhere (decision 044). */
  allowDuplicateTxId?: boolean,
) => Promise<string> {
  const { t } = useTranslation('staffOrders');
  const [supply] = useMutation(StaffOrdersSupplyRequisitesDocument);
  const [confirmPayment] = useMutation(StaffOrdersConfirmPaymentDocument);
  const [hold] = useMutation(StaffOrdersHoldDocument);
  const [releaseHold] = useMutation(StaffOrdersReleaseHoldDocument);
  const [completeRefund] = useMutation(StaffOrdersCompleteRefundDocument);
  const [complete] = useMutation(StaffOrdersCompleteDocument);
  const [cancel] = useMutation(StaffOrdersCancelDocument);

  /** The notification for where the order went (the action answers its new status). */
  const outcome = (
    action: Step,
    category: string,
    status: string | undefined,
    reason: string | null,
  ): string => {
    const number = order.number;
    switch (status) {
      case 'paid':
        return action === 'release'
          ? t('actions.released', { number })
          : t('actions.confirmed', { number });
      case 'needs_user_action':
        return t('actions.needsCustomer', { number, reason: reasonLabel(t, reason) ?? '' });
      case 'on_hold':
        return t('actions.held', { number, category: reasonLabel(t, category) ?? '' });
      case 'refund_in_progress':
        return t('actions.refundStarted', { number });
      case 'refunded':
        return t('actions.refunded', { number });
      default:
        return t('staff:done');
    }
  };

  return async (action, fields, received, allowDuplicateTxId = false) => {
    const allow = allowDuplicateTxId ? { allowDuplicateTxId: true } : {};
    const id = order.id;
    const number = order.number;
    const receivedAmount = received?.ok ? received.amount : undefined;
    if (action === 'supply') {
      const memo = fields.memo.trim();
      await supply({
        variables: byAddress
          ? { id, depositAddress: fields.address.trim(), ...(memo ? { depositMemo: memo } : {}) }
          : { id, bankAccountId: fields.account },
      });
      return t('actions.supplied', { number });
    } else if (action === 'confirm' || action === 'latePayment') {
      const result = await confirmPayment({ variables: { id, receivedAmount } });
      const reason = received?.ok && received.outcome !== 'paid' ? received.outcome : null;
      return outcome(action, fields.category, result.data?.confirmPayment?.status, reason);
    } else if (action === 'hold') {
      const result = await hold({
        variables: {
          id,
          category: fields.category,
          ...(receivedAmount ? { receivedAmount } : {}),
        },
      });
      return outcome(action, fields.category, result.data?.holdOrder?.status, null);
    } else if (action === 'release' || action === 'refund') {
      const result = await releaseHold({
        variables: { id, outcome: action === 'release' ? 'release' : 'refund' },
      });
      return outcome(action, fields.category, result.data?.releaseHold?.status, 'refund_required');
    } else if (action === 'completeRefund') {
      const result = await completeRefund({
        variables: { id, refundTxId: fields.txId.trim(), ...allow },
      });
      return outcome(action, fields.category, result.data?.completeRefund?.status, null);
    } else if (action === 'complete') {
      await complete({ variables: { id, payoutTxId: fields.txId.trim(), ...allow } });
      return t('actions.completed', { number });
    } else {
      await cancel({ variables: { id, reason: fields.reason.trim() } });
      return t('actions.canceled', { number });
    }
  };
}
