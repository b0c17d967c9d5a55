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
