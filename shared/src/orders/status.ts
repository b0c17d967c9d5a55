/** The order wizard's steps (spec section 2), as both clients' progress bars show them. */
export const WIZARD_STEPS = ['pair', 'creation', 'send', 'receive', 'completed'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

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

/** The engine sends the status as text; the migrations' CHECK keeps it to these. */
export const asOrderStatus = (status: string): OrderStatus => status as OrderStatus;

/** The owner may cancel until the payment is confirmed. */
export const isCancelable = (status: OrderStatus): boolean =>
  status === 'waiting_for_operator' || status === 'waiting_for_payment';

/** States an order never leaves. */
export const isFinal = (status: OrderStatus): boolean =>
  status === 'completed' || status === 'canceled' || status === 'refunded';

/**
 * Where an order in `status` stands in the wizard's steps (spec section 2). The side states sit
 * on the step they interrupt: an expired order or a payment that needs the user's decision is
 * still the payment step; a held payment, or funds on their way back, wait on the service.
 */
export function wizardStepOf(status: OrderStatus): WizardStep {
  switch (status) {
    case 'waiting_for_payment':
    case 'expired':
    case 'needs_user_action':
      return 'send';
    case 'paid':
    case 'on_hold':
    case 'refund_in_progress':
    case 'refunded':
      return 'receive';
    case 'completed':
      return 'completed';
    default:
      return 'creation';
  }
}
