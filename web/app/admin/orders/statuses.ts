import {
  isActionReason,
  isHoldCategory,
  isOrderStatus,
  isSideStatus,
} from '@app/shared/orders/vocabulary';

import type { AnyT, TextKey } from '@app/client/i18n/i18n.ts';

/*
 * How the staff console names the ten states (decision 015), whose vocabulary lives in
 * @app/shared/orders/vocabulary. The backbone's names are the customer's own
 * (exchange:transaction.statuses); the side states have staff wording (staffOrders:statuses),
 * since "your action needed" means the customer's action, not the operator's.
 */

/** The i18n key of a status's name; an unknown status has none (shown as it is). */
export function statusKey(status: string): TextKey | null {
  if (isSideStatus(status)) return `staffOrders:statuses.${status}`;
  if (isOrderStatus(status)) return `exchange:transaction.statuses.${status}`;
  return null;
}

/** A status's name in the page's language (an unknown one as the engine sent it). */
export function statusLabel(t: AnyT, status: string): string {
  const key = statusKey(status);
  return key ? t(key) : status;
}

/** The status chip's class: `status status--<status>`, and `status--side` for a side state. */
export const statusClass = (status: string): string =>
  isSideStatus(status) ? `status status--${status} status--side` : `status status--${status}`;

/** The name of a needs_user_action reason or a hold category (an unknown one as it is). */
export function reasonLabel(t: AnyT, reason: string | null | undefined): string | null {
  if (!reason) return null;
  if (isActionReason(reason)) return t(`staffOrders:reasons.${reason}`);
  if (isHoldCategory(reason)) return t(`staffOrders:holdCategories.${reason}`);
  return reason;
}
