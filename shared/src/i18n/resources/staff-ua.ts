/* The staff console's texts in this locale: the same namespaces as staff-en.ts, checked by the type. */
import { staff } from '../catalogs/ua/staff.ts';
import { staffAudit } from '../catalogs/ua/staff-audit.ts';
import { staffCustomers } from '../catalogs/ua/staff-customers.ts';
import { staffOrders } from '../catalogs/ua/staff-orders.ts';
import { staffTeam } from '../catalogs/ua/staff-team.ts';
import type { StaffResources } from '../resource-types.ts';

export const uaStaff: StaffResources = {
  staff,
  staffOrders,
  staffTeam,
  staffCustomers,
  staffAudit,
};
