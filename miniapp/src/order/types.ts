import type { OrderStatus } from '@app/shared/orders/status';
import type { TransactionSubscription } from '@app/client/graphql/generated/user.ts';

/** An order as the order screen follows it (the Transaction subscription), its status typed. */
export type Order = Omit<NonNullable<TransactionSubscription['transactions_by_pk']>, 'status'> & {
  status: OrderStatus;
};
