import type {
  StaffCustomersFindUsersQuery,
  StaffCustomersRatesContextQuery,
} from '@app/client/graphql/generated/manager.ts';

/* The shapes the custom-rates page and its panels share (one module, so none imports the page). */

export type Customer = StaffCustomersFindUsersQuery['portal_users'][number];
export type Level = StaffCustomersRatesContextQuery['user_levels'][number];
export type RateCurrency = StaffCustomersRatesContextQuery['currencies'][number];
export type CustomRate = Customer['custom_currencies'][number];

/** The level a status names, else `new` (spec section 4). */
export const levelOf = (levels: Level[], status: string): Level | undefined =>
  levels.find((level) => level.status === status) ?? levels.find((level) => level.status === 'new');
