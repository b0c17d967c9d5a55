import type { TFunction } from 'i18next';

/*
 * The ten states an order can be in, as the staff console lists them (decision 015): the
 * spec's five (the backbone), then the side states, in the order of the view
 * `transaction_status_counts` (its `position`). The backbone's names are the customer's own
 * (exchange:transaction.statuses); the side states have staff wording (staffOrders:statuses),
 * since "your action needed" means the customer's action, not the operator's.
 */

export const BACKBONE_STATUSES = [
  'waiting_for_operator',
  'waiting_for_payment',
  'paid',
  'completed',
  'canceled',
] as const;

export const SIDE_STATUSES = [
  'on_hold',
  'needs_user_action',
  'refund_in_progress',
  'refunded',
  'expired',
] as const;

export const STAFF_STATUSES = [...BACKBONE_STATUSES, ...SIDE_STATUSES] as const;

export type StaffStatus = (typeof STAFF_STATUSES)[number];
export type SideStatus = (typeof SIDE_STATUSES)[number];

export const isStaffStatus = (value: string | null | undefined): value is StaffStatus =>
  (STAFF_STATUSES as readonly string[]).includes(value ?? '');

export const isSideStatus = (value: string | null | undefined): value is SideStatus =>
  (SIDE_STATUSES as readonly string[]).includes(value ?? '');

/** Why an order waits for the customer (needs_user_action). */
export const ACTION_REASONS = ['underpaid', 'overpaid', 'late_payment', 'refund_required'] as const;
export type ActionReason = (typeof ACTION_REASONS)[number];

/** Why a payment is held (on_hold): the category the customer is shown. */
export const HOLD_CATEGORIES = [
  'aml_review',
  'source_of_funds',
  'sanctions_screening',
  'identity_verification',
] as const;
export type HoldCategory = (typeof HOLD_CATEGORIES)[number];

export const isActionReason = (value: string | null | undefined): value is ActionReason =>
  (ACTION_REASONS as readonly string[]).includes(value ?? '');

export const isHoldCategory = (value: string | null | undefined): value is HoldCategory =>
  (HOLD_CATEGORIES as readonly string[]).includes(value ?? '');

/** The i18n key of a status's name; an unknown status has none (shown as it is). */
export function statusKey(status: string): string | null {
  if (isSideStatus(status)) return `staffOrders:statuses.${status}`;
  if (isStaffStatus(status)) return `exchange:transaction.statuses.${status}`;
  return null;
}

/** A status's name in the page's language (an unknown one as the engine sent it). */
export function statusLabel(t: TFunction, status: string): string {
  const key = statusKey(status);
  return key ? t(key) : status;
}

/** The status chip's class: `status status--<status>`, and `status--side` for a side state. */
export const statusClass = (status: string): string =>
  isSideStatus(status) ? `status status--${status} status--side` : `status status--${status}`;

/** The name of a needs_user_action reason or a hold category (an unknown one as it is). */
export function reasonLabel(t: TFunction, reason: string | null | undefined): string | null {
  if (!reason) return null;
  if (isActionReason(reason)) return t(`staffOrders:reasons.${reason}`);
  if (isHoldCategory(reason)) return t(`staffOrders:holdCategories.${reason}`);
  return reason;
}
