import type { staffCustomers as en } from '../en/staff-customers.ts';
import type { Messages } from '../../types.ts';

export const staffCustomers: Messages<typeof en> = {
  placeholder: 'placeholder',
};
