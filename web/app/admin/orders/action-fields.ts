import type { StaffOrdersDetailQuery } from '@app/client/graphql/generated/manager.ts';
import { isHoldCategory } from '@app/shared/orders/vocabulary';

import type { AnyT } from '@app/client/i18n/i18n.ts';

import type { ReceivedCheck, Step } from './order-steps.ts';

/* What the operator types into a step's dialog, and the checks made before it is sent. */

/** The order as the staff console's detail shows it. */
export type DetailOrder = NonNullable<StaffOrdersDetailQuery['transactions_by_pk']>;

export interface ActionFields {
  address: string;
  memo: string;
  account: string;
  txId: string;
  reason: string;
  amount: string;
  category: string;
}

export const EMPTY_ACTION_FIELDS: ActionFields = {
  address: '',
  memo: '',
  account: '',
  txId: '',
  reason: '',
  amount: '',
  category: '',
};
export type ActionFieldErrors = Partial<Record<keyof ActionFields, string>>;

/** The errors of a step's fields: required ones, an address's length, the amount received. */
export function validateActionFields(
  {
    action,
    fields,
    byAddress,
    memoRequired,
    received,
    precision,
  }: {
    action: Step | null;
    fields: ActionFields;
    byAddress: boolean;
    memoRequired: boolean;
    received: ReceivedCheck | null;
    precision: number;
  },
  t: AnyT,
): ActionFieldErrors {
  const found: ActionFieldErrors = {};
  const required = t('errors.required');
  if (action === 'supply' && byAddress) {
    const address = fields.address.trim();
    if (!address) found.address = required;
    else if (address.length < 10 || address.length > 128) found.address = t('errors.addressLength');
    if (memoRequired && !fields.memo.trim()) found.memo = required;
  }
  if (action === 'supply' && !byAddress && !fields.account) found.account = required;
  if ((action === 'complete' || action === 'completeRefund') && !fields.txId.trim())
    found.txId = required;
  if (action === 'cancel' && !fields.reason.trim()) found.reason = required;
  if (action === 'hold' && !isHoldCategory(fields.category)) found.category = t('errors.category');
  if (received && !received.ok) {
    found.amount =
      received.error === 'required'
        ? required
        : received.error === 'precision'
          ? t('errors.amountPrecision', { precision })
          : t('errors.amountInvalid');
  }
  return found;
}
