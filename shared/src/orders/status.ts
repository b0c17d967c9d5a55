import { ORDER_TRANSITIONS, type OrderStatus } from './vocabulary.ts';

/** The order wizard's steps (spec section 2), as both clients' progress bars show them. */
export const WIZARD_STEPS = ['pair', 'creation', 'send', 'receive', 'completed'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export {
  BACKBONE_STATUSES,
  ORDER_STATUSES,
  SIDE_STATUSES,
  type OrderStatus,
} from './vocabulary.ts';

/** The engine sends the status as text; the migrations' CHECK keeps it to these. */
export const asOrderStatus = (status: string): OrderStatus => status as OrderStatus;

/** The owner may cancel until the payment is confirmed. */
export const isCancelable = (status: OrderStatus): boolean =>
  status === 'waiting_for_operator' || status === 'waiting_for_payment';

/** States an order never leaves: the database allows no move out of them. */
export const isFinal = (status: OrderStatus): boolean => ORDER_TRANSITIONS[status].length === 0;

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
