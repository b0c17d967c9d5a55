import { expect } from 'vitest';

import * as doc from './staff-console-documents.ts';

/*
 * Every operation of the staff console, as the refusal suite tries it: the documents the console
 * sends with variables that point at real rows (so a refusal is about the role, not a missing id).
 */

export const DEPOSIT_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

export interface Operation {
  name: string;
  query: string;
  variables: Record<string, unknown>;
  kind: 'query' | 'mutation' | 'subscription';
  /**
   * For a customer whose role has the same root fields: what they get instead (only their own
   * rows). Absent: the customer is refused too.
   */
  ownRowsOnly?: (data: Record<string, unknown>) => void;
}

/** The users and rows the operations act on (seeded by the suite). */
export interface OperationTargets {
  ids: { customer: string; manager: string };
  waiting: string;
  awaitingPayment: string;
  paid: string;
  account: string;
  withdrawal: string;
  request: string;
  rate: string;
}

/** The console's operations, each aimed at one of `targets`' rows. */
export function consoleOperations(targets: OperationTargets): Operation[] {
  const { ids, waiting, awaitingPayment, paid, account, withdrawal, request, rate } = targets;
  const everything = { where: {}, orderBy: [{ created_at: 'desc' }], limit: 50, offset: 0 };
  const onlyOwnOrders = (data: Record<string, unknown>) => {
    const rows = data['transactions'] as Array<{ user: { id: string } }>;
    expect(rows.map((row) => row.user.id)).toEqual([ids.customer]);
  };
  return [
    // /admin/transactions
    { name: 'queue', kind: 'query', query: doc.QUEUE, variables: everything },
    {
      name: 'live queue',
      kind: 'subscription',
      query: doc.QUEUE_LIVE,
      variables: everything,
      ownRowsOnly: onlyOwnOrders,
    },
    {
      name: 'live status counts',
      kind: 'subscription',
      query: doc.STATUS_COUNTS_LIVE,
      variables: {},
    },
    {
      name: 'status counts',
      kind: 'query',
      query: `query { transaction_status_counts { status total } }`,
      variables: {},
    },
    {
      name: 'filtered status counts',
      kind: 'query',
      query: doc.FILTERED_STATUS_COUNTS,
      variables: { where: {} },
      ownRowsOnly: (data) => {
        // Their own single completed order, no one else's three open ones.
        const counts = Object.fromEntries(
          Object.entries(data).map(([status, value]) => [
            status,
            (value as { aggregate: { count: number } }).aggregate.count,
          ]),
        );
        expect(counts).toEqual({
          waiting_for_operator: 0,
          waiting_for_payment: 0,
          paid: 0,
          completed: 1,
          canceled: 0,
        });
      },
    },
    {
      name: 'order detail',
      kind: 'query',
      query: doc.ORDER_DETAIL,
      variables: { id: waiting },
    },
    {
      name: 'live order detail',
      kind: 'subscription',
      query: doc.ORDER_LIVE,
      variables: { id: waiting },
      ownRowsOnly: (data) => expect(data['transactions_by_pk']).toBeNull(),
    },
    {
      name: 'active bank accounts',
      kind: 'query',
      query: doc.ACTIVE_BANK_ACCOUNTS,
      variables: { currency: 'EUR' },
    },
    {
      name: 'supplyRequisites',
      kind: 'mutation',
      query: doc.SUPPLY_REQUISITES,
      variables: { id: waiting, depositAddress: DEPOSIT_BTC },
    },
    {
      name: 'confirmPayment',
      kind: 'mutation',
      query: doc.CONFIRM_PAYMENT,
      variables: { id: awaitingPayment },
    },
    {
      name: 'completeExchange',
      kind: 'mutation',
      query: doc.COMPLETE_EXCHANGE,
      variables: { id: paid, payoutTxId: 'tx-forged' },
    },
    {
      name: 'cancelExchangeByStaff',
      kind: 'mutation',
      query: doc.CANCEL_EXCHANGE,
      variables: { id: waiting, reason: 'forged' },
    },
    {
      name: 'pending withdrawals',
      kind: 'query',
      query: doc.PENDING_WITHDRAWALS,
      variables: { limit: 20, offset: 0 },
      ownRowsOnly: (data) => {
        expect(data['bonus_withdrawals']).toEqual([]);
        expect(data['bonus_withdrawals_aggregate']).toEqual({
          aggregate: { count: 0, sum: { amount_usdt: null } },
        });
      },
    },
    {
      name: 'processBonusWithdrawal',
      kind: 'mutation',
      query: doc.PROCESS_WITHDRAWAL,
      variables: { id: withdrawal, outcome: 'paid', payoutTxId: 'tx-forged' },
    },
    // /admin/managers
    {
      name: 'staff list',
      kind: 'query',
      query: doc.STAFF_LIST,
      variables: {},
      ownRowsOnly: (data) => expect(data['roles']).toEqual([]),
    },
    {
      name: 'grantManagerRole',
      kind: 'mutation',
      query: doc.GRANT_MANAGER,
      variables: { email: 'customer@example.com' },
    },
    {
      name: 'revokeManagerRole',
      kind: 'mutation',
      query: doc.REVOKE_MANAGER,
      variables: { userId: ids.manager },
    },
    {
      name: 'insert_roles_one',
      kind: 'mutation',
      query: `mutation ($id: uuid!) { insert_roles_one(object: { user_id: $id, role_type: "manager" }) { id } }`,
      variables: { id: ids.customer },
    },
    {
      name: 'delete_roles',
      kind: 'mutation',
      query: `mutation { delete_roles(where: {}) { affected_rows } }`,
      variables: {},
    },
    // /admin/bank-accounts
    { name: 'bank accounts', kind: 'query', query: doc.BANK_ACCOUNTS, variables: {} },
    {
      name: 'create bank account',
      kind: 'mutation',
      query: doc.CREATE_BANK_ACCOUNT,
      variables: {
        object: {
          beneficiary: 'Mallory',
          account_number: 'DE02120300000000202051',
          swift_bic: 'BYLADEM1001',
          bank_address: 'Elsewhere',
          currency_code: 'EUR',
        },
      },
    },
    {
      name: 'edit bank account',
      kind: 'mutation',
      query: doc.UPDATE_BANK_ACCOUNT,
      variables: { id: account, set: { beneficiary: 'Mallory' } },
    },
    {
      name: 'deactivate bank account',
      kind: 'mutation',
      query: doc.UPDATE_BANK_ACCOUNT,
      variables: { id: account, set: { is_active: false } },
    },
    // /admin/support-requests
    {
      name: 'support requests',
      kind: 'query',
      query: doc.SUPPORT_REQUESTS,
      variables: { where: {}, limit: 20, offset: 0 },
    },
    {
      name: 'mark handled',
      kind: 'mutation',
      query: doc.MARK_HANDLED,
      variables: { id: request, handled: true },
    },
    {
      name: 'sendSupportFeedback',
      kind: 'mutation',
      query: doc.SEND_FEEDBACK,
      variables: {
        email: 'victim@example.com',
        subject: 'Your account',
        message: 'Click here',
        supportRequestId: request,
      },
    },
    // /admin/user-custom-currency
    {
      name: 'find users',
      kind: 'query',
      query: doc.FIND_USERS,
      variables: { pattern: '%@%', limit: 20 },
    },
    {
      name: 'set custom rate',
      kind: 'mutation',
      query: doc.SET_CUSTOM_RATE,
      variables: { userId: ids.customer, currency: 'BTC', buyRate: null, sellRate: '999999' },
    },
    {
      name: 'remove custom rate',
      kind: 'mutation',
      query: doc.REMOVE_CUSTOM_RATE,
      variables: { id: rate },
    },
    {
      name: 'set user status',
      kind: 'mutation',
      query: doc.SET_USER_STATUS,
      variables: { id: ids.customer, status: 'platinum' },
    },
    {
      name: 'update user level',
      kind: 'mutation',
      query: doc.UPDATE_USER_LEVEL,
      variables: { status: 'new', set: { buy_margin: '0' } },
    },
    {
      name: 'insert user level',
      kind: 'mutation',
      query: doc.INSERT_USER_LEVEL,
      variables: {
        object: { status: 'free', buy_margin: '0', sell_margin: '0', min_orders: 1 },
      },
    },
    {
      name: 'delete user level',
      kind: 'mutation',
      query: doc.DELETE_USER_LEVEL,
      variables: { status: 'platinum' },
    },
  ];
}
