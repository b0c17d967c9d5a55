import type { WizardStep } from './wizard-progress.tsx';

/** An order's states (spec section 4), in their lifecycle order. */
export const ORDER_STATUSES = [
  'waiting_for_operator',
  'waiting_for_payment',
  'paid',
  'completed',
  'canceled',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The engine sends the status as text; the migrations' CHECK keeps it to these. */
export const asOrderStatus = (status: string): OrderStatus => status as OrderStatus;

/** The owner may cancel until the payment is confirmed. */
export const isCancelable = (status: OrderStatus): boolean =>
  status === 'waiting_for_operator' || status === 'waiting_for_payment';

/** Where an order in `status` stands in the wizard's steps (spec section 2). */
export function wizardStepOf(status: OrderStatus): WizardStep {
  switch (status) {
    case 'waiting_for_payment':
      return 'send';
    case 'paid':
      return 'receive';
    case 'completed':
      return 'completed';
    default:
      return 'creation';
  }
}
