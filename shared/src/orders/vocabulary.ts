/*
 * The orders vocabulary, once for every workspace: the states an order can be in, why it waits
 * for its owner, why its payment is held, and which moves between states the database allows.
 * The migrations are the authority (CHECK constraints on public.transactions and the function
 * public.transaction_transition_allowed); tests/integration/database/orders-vocabulary.test.ts
 * fails when this file and the applied migrations disagree.
 */

/** The spec's five states (section 4), the backbone every order follows, in lifecycle order. */
export const BACKBONE_STATUSES = [
  'waiting_for_operator',
  'waiting_for_payment',
  'paid',
  'completed',
  'canceled',
] as const;

/**
 * The side states of issue 10 (docs/decisions/015-order-trust.md): detours that rejoin the
 * backbone (on hold, the user's decision) or end the order (refunded, expired).
 */
export const SIDE_STATUSES = [
  'on_hold',
  'needs_user_action',
  'refund_in_progress',
  'refunded',
  'expired',
] as const;

/** Every state an order can be in: the backbone, then the side states. */
export const ORDER_STATUSES = [...BACKBONE_STATUSES, ...SIDE_STATUSES] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type SideStatus = (typeof SIDE_STATUSES)[number];

/** Why an order waits for its owner (needs_user_action; transactions.action_reason). */
export const ACTION_REASONS = ['underpaid', 'overpaid', 'late_payment', 'refund_required'] as const;
export type ActionReason = (typeof ACTION_REASONS)[number];

/** Why a payment is held (on_hold; transactions.hold_category): the category the owner is shown. */
export const HOLD_CATEGORIES = [
  'aml_review',
  'source_of_funds',
  'sanctions_screening',
  'identity_verification',
] as const;
export type HoldCategory = (typeof HOLD_CATEGORIES)[number];

/** The state every new order starts in (the insert guard refuses any other). */
export const INITIAL_STATUS = 'waiting_for_operator' satisfies OrderStatus;

/**
 * The moves the database allows (public.transaction_transition_allowed), from each state to
 * the states it may go to. A state with none is final.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  waiting_for_operator: ['waiting_for_payment', 'canceled'],
  // Paid, canceled, expired, or the payment arrived not as agreed or is held for review.
  waiting_for_payment: ['paid', 'canceled', 'expired', 'needs_user_action', 'on_hold'],
  paid: ['completed', 'on_hold'],
  completed: [],
  canceled: [],
  // A hold is released, needs the owner's decision, or the funds go back.
  on_hold: ['paid', 'needs_user_action', 'refund_in_progress'],
  // The owner continues at the current rate, or asks for a refund.
  needs_user_action: ['paid', 'refund_in_progress'],
  refund_in_progress: ['refunded'],
  refunded: [],
  // A payment that arrives after the window.
  expired: ['needs_user_action', 'on_hold'],
};

/** Whether the database lets an order move from `from` to `to`. */
export const canMove = (from: OrderStatus, to: OrderStatus): boolean =>
  ORDER_TRANSITIONS[from].includes(to);

const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string | null | undefined): value is T =>
    (values as readonly string[]).includes(value ?? '');

export const isOrderStatus = isOneOf(ORDER_STATUSES);
export const isSideStatus = isOneOf(SIDE_STATUSES);
export const isActionReason = isOneOf(ACTION_REASONS);
export const isHoldCategory = isOneOf(HOLD_CATEGORIES);
