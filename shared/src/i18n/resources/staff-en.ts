/*
 * The staff console's English texts: only its pages load them (web/app/admin/staff-texts.ts),
 * so the public pages' locale chunk stays small. The other locales are typed against these.
 */
import { staff } from '../catalogs/en/staff.ts';
import { staffAudit } from '../catalogs/en/staff-audit.ts';
import { staffCustomers } from '../catalogs/en/staff-customers.ts';
import { staffOrders } from '../catalogs/en/staff-orders.ts';
import { staffTeam } from '../catalogs/en/staff-team.ts';

export const enStaff = { staff, staffOrders, staffTeam, staffCustomers, staffAudit };
