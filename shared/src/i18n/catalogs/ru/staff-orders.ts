import type { staffOrders as en } from '../en/staff-orders.ts';
import type { Messages } from '../../types.ts';

export const staffOrders: Messages<typeof en> = {
  placeholder: 'placeholder',
};
