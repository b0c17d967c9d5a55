/* The staff console's texts in this locale: the same namespaces as staff-en.ts, checked by the type. */
import { staff } from '../catalogs/ru/staff.ts';
import { staffAudit } from '../catalogs/ru/staff-audit.ts';
import { staffCustomers } from '../catalogs/ru/staff-customers.ts';
import { staffOrders } from '../catalogs/ru/staff-orders.ts';
import { staffTeam } from '../catalogs/ru/staff-team.ts';
import type { StaffResources } from '../resource-types.ts';

export const ruStaff: StaffResources = {
  staff,
  staffOrders,
  staffTeam,
  staffCustomers,
  staffAudit,
};
