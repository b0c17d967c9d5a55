/*
 * The GraphQL operations the staff console (issue 7) uses, page by page, as the console sends
 * them. The integration suites run exactly these documents: staff-console.test.ts (what staff
 * can do), staff-console-refusals.test.ts (what a user and a visitor cannot) and
 * staff-console-scale.test.ts (the queue's plans at 100k orders). docs/decisions/011 lists them.
 */

// ---------------------------------------------------------------- /admin/transactions

/** The queue: one page of orders for the filters, and how many match (for the pager). */
export const QUEUE = `query StaffQueue(
  $where: transactions_bool_exp!
  $orderBy: [transactions_order_by!]!
  $limit: Int!
  $offset: Int!
) {
  transactions(where: $where, order_by: $orderBy, limit: $limit, offset: $offset) {
    id number status created_at updated_at
    send_currency receive_currency send_amount receive_amount amount_usdt
    email full_name source
    user { id email telegram_username status is_disabled }
  }
  transactions_aggregate(where: $where) { aggregate { count } }
}`;

/** The same page, live (graphql-transport-ws). */
export const QUEUE_LIVE = `subscription StaffQueueLive(
  $where: transactions_bool_exp!
  $orderBy: [transactions_order_by!]!
  $limit: Int!
  $offset: Int!
) {
  transactions(where: $where, order_by: $orderBy, limit: $limit, offset: $offset) {
    id number status updated_at send_currency receive_currency send_amount receive_amount email
    user { id email telegram_username }
  }
}`;

/** Every status with its number of orders (zero included), live: the queue's tabs. */
export const STATUS_COUNTS_LIVE = `subscription StaffStatusCounts {
  transaction_status_counts(order_by: { position: asc }) { status total }
}`;

/** Per-status counts under the queue's other filters (one statement, five index lookups). */
export const FILTERED_STATUS_COUNTS = `query StaffFilteredCounts($where: transactions_bool_exp!) {
  waiting_for_operator: transactions_aggregate(
    where: { _and: [$where, { status: { _eq: "waiting_for_operator" } }] }
  ) { aggregate { count } }
  waiting_for_payment: transactions_aggregate(
    where: { _and: [$where, { status: { _eq: "waiting_for_payment" } }] }
  ) { aggregate { count } }
  paid: transactions_aggregate(where: { _and: [$where, { status: { _eq: "paid" } }] }) {
    aggregate { count }
  }
  completed: transactions_aggregate(where: { _and: [$where, { status: { _eq: "completed" } }] }) {
    aggregate { count }
  }
  canceled: transactions_aggregate(where: { _and: [$where, { status: { _eq: "canceled" } }] }) {
    aggregate { count }
  }
}`;

/** The detail panel: the order, its requisites, the customer (level, completed orders), history. */
export const ORDER_DETAIL = `query StaffOrder($id: uuid!) {
  transactions_by_pk(id: $id) {
    id number status created_at updated_at requisites_at paid_at completed_at canceled_at
    send_currency receive_currency send_amount receive_amount rate amount_usdt
    email full_name wallet_address iban reason locale source
    deposit_address deposit_memo payment_reference payout_tx_id canceled_by cancel_reason
    send_currency_info { code symbol name kind network memo_required }
    receive_currency_info { code symbol name kind network }
    bank_account { id label beneficiary account_number swift_bic bank_address currency_code }
    user {
      id email telegram_username status is_disabled created_at
      user_level { status buy_margin sell_margin min_orders }
      completed_orders: transactions_aggregate(where: { status: { _eq: "completed" } }) {
        aggregate { count }
      }
    }
    status_history(order_by: { id: asc }) {
      from_status to_status note created_at changed_by_user { id email }
    }
  }
}`;

/** The order detail, live: the panel follows status changes made by other staff. */
export const ORDER_LIVE = `subscription StaffOrderLive($id: uuid!) {
  transactions_by_pk(id: $id) {
    id status updated_at deposit_address payment_reference payout_tx_id cancel_reason
    status_history(order_by: { id: asc }) { to_status created_at }
  }
}`;

/** The accounts an operator can give for a fiat order: active, in the order's send currency. */
export const ACTIVE_BANK_ACCOUNTS = `query StaffActiveBankAccounts($currency: String!) {
  bank_accounts(
    where: { is_active: { _eq: true }, currency_code: { _eq: $currency } }
    order_by: [{ label: asc_nulls_last }, { created_at: asc }]
  ) { id label beneficiary account_number swift_bic bank_address currency_code }
}`;

export const SUPPLY_REQUISITES = `mutation StaffSupplyRequisites(
  $id: uuid!, $depositAddress: String, $depositMemo: String, $bankAccountId: uuid
) {
  supplyRequisites(
    transactionId: $id, depositAddress: $depositAddress, depositMemo: $depositMemo,
    bankAccountId: $bankAccountId
  ) { id number status transaction { payment_reference deposit_address } }
}`;
export const CONFIRM_PAYMENT = `mutation StaffConfirmPayment($id: uuid!) {
  confirmPayment(transactionId: $id) { id number status }
}`;
export const COMPLETE_EXCHANGE = `mutation StaffCompleteExchange($id: uuid!, $payoutTxId: String!) {
  completeExchange(transactionId: $id, payoutTxId: $payoutTxId) { id number status }
}`;
export const CANCEL_EXCHANGE = `mutation StaffCancelExchange($id: uuid!, $reason: String!) {
  cancelExchangeByStaff(transactionId: $id, reason: $reason) { id number status }
}`;

/** The withdrawals tab: pending ones oldest first, their count and sum. */
export const PENDING_WITHDRAWALS = `query StaffPendingWithdrawals($limit: Int!, $offset: Int!) {
  bonus_withdrawals(
    where: { status: { _eq: "pending" } }, order_by: { created_at: asc }, limit: $limit, offset: $offset
  ) {
    id amount_usdt wallet_address status created_at
    user { id email telegram_username }
  }
  bonus_withdrawals_aggregate(where: { status: { _eq: "pending" } }) {
    aggregate { count sum { amount_usdt } }
  }
}`;
export const PROCESS_WITHDRAWAL = `mutation StaffProcessWithdrawal(
  $id: uuid!, $outcome: String!, $payoutTxId: String, $reason: String
) {
  processBonusWithdrawal(withdrawalId: $id, outcome: $outcome, payoutTxId: $payoutTxId, reason: $reason) {
    id status availableUsdt withdrawal { processed_at processed_by }
  }
}`;

// ---------------------------------------------------------------- /admin/managers (administrators)

export const STAFF_LIST = `query StaffList {
  roles(order_by: [{ role_type: asc }, { created_at: asc }]) {
    id role_type created_at
    user { id email telegram_username }
  }
}`;
export const GRANT_MANAGER = `mutation StaffGrantManager($email: String!) {
  grantManagerRole(email: $email) { userId email isManager changed user { id email } }
}`;
export const REVOKE_MANAGER = `mutation StaffRevokeManager($userId: uuid!) {
  revokeManagerRole(userId: $userId) { userId email isManager changed }
}`;

// ---------------------------------------------------------------- /admin/bank-accounts

const BANK_ACCOUNT = `id label beneficiary account_number swift_bic bank_address currency_code is_active
  created_at updated_at`;
export const BANK_ACCOUNTS = `query StaffBankAccounts {
  bank_accounts(order_by: [{ is_active: desc }, { created_at: desc }]) {
    ${BANK_ACCOUNT}
    orders: transactions_aggregate { aggregate { count } }
  }
}`;
export const CREATE_BANK_ACCOUNT = `mutation StaffCreateBankAccount($object: bank_accounts_insert_input!) {
  insert_bank_accounts_one(object: $object) { ${BANK_ACCOUNT} }
}`;
/** Edit, and activate or deactivate (`{ is_active: false }`). */
export const UPDATE_BANK_ACCOUNT = `mutation StaffUpdateBankAccount($id: uuid!, $set: bank_accounts_set_input!) {
  update_bank_accounts_by_pk(pk_columns: { id: $id }, _set: $set) { ${BANK_ACCOUNT} }
}`;

// ---------------------------------------------------------------- /admin/support-requests

export const SUPPORT_REQUESTS = `query StaffSupportRequests(
  $where: support_requests_bool_exp!, $limit: Int!, $offset: Int!
) {
  support_requests(where: $where, order_by: { created_at: desc }, limit: $limit, offset: $offset) {
    id name email order_id subject message handled handled_at created_at
    handled_by_user { id email }
    user { id email telegram_username }
    feedback(order_by: { sent_at: asc }) { id email subject message sent_at sent_by_user { email } }
  }
  support_requests_aggregate(where: $where) { aggregate { count } }
}`;
export const MARK_HANDLED = `mutation StaffMarkHandled($id: uuid!, $handled: Boolean!) {
  update_support_requests_by_pk(pk_columns: { id: $id }, _set: { handled: $handled }) {
    id handled handled_at handled_by
  }
}`;
export const SEND_FEEDBACK = `mutation StaffSendFeedback(
  $email: String!, $subject: String!, $message: String!, $supportRequestId: uuid, $markHandled: Boolean
) {
  sendSupportFeedback(
    email: $email, subject: $subject, message: $message,
    supportRequestId: $supportRequestId, markHandled: $markHandled
  ) {
    id sentAt supportRequestId handled
    feedback { id email subject sent_by }
    supportRequest { id handled handled_by }
  }
}`;

// ---------------------------------------------------------------- /admin/user-custom-currency

/** `$pattern` is an ILIKE pattern: the console escapes `\\`, `%` and `_` and wraps it in `%`. */
export const FIND_USERS = `query StaffFindUsers($pattern: String!, $limit: Int!) {
  portal_users(
    where: { _or: [{ email: { _ilike: $pattern } }, { telegram_username: { _ilike: $pattern } }] }
    order_by: { email: asc_nulls_last }
    limit: $limit
  ) {
    id email telegram_username status is_disabled created_at
    user_level { status buy_margin sell_margin min_orders }
    completed_orders: transactions_aggregate(where: { status: { _eq: "completed" } }) {
      aggregate { count }
    }
    custom_currencies(order_by: { currency_code: asc }) {
      id currency_code buy_rate sell_rate updated_at
    }
  }
}`;
/** Set (or replace) a user's rates for one currency; a null rate means the level's margin. */
export const SET_CUSTOM_RATE = `mutation StaffSetCustomRate(
  $userId: uuid!, $currency: String!, $buyRate: numeric, $sellRate: numeric
) {
  insert_user_custom_carrency_one(
    object: { user_id: $userId, currency_code: $currency, buy_rate: $buyRate, sell_rate: $sellRate }
    on_conflict: {
      constraint: user_custom_carrency_user_currency_key, update_columns: [buy_rate, sell_rate]
    }
  ) { id user_id currency_code buy_rate sell_rate }
}`;
export const REMOVE_CUSTOM_RATE = `mutation StaffRemoveCustomRate($id: uuid!) {
  delete_user_custom_carrency_by_pk(id: $id) { id currency_code }
}`;
/** Administrators: a user's status (their level; a status naming no level means `new`). */
export const SET_USER_STATUS = `mutation StaffSetUserStatus($id: uuid!, $status: String!) {
  update_portal_users_by_pk(pk_columns: { id: $id }, _set: { status: $status }) { id status }
}`;

export const USER_LEVELS = `query StaffUserLevels {
  user_levels(order_by: { min_orders: asc }) { status buy_margin sell_margin min_orders }
}`;
/** Administrators only, as the two below. */
export const UPDATE_USER_LEVEL = `mutation StaffUpdateUserLevel($status: String!, $set: user_levels_set_input!) {
  update_user_levels_by_pk(pk_columns: { status: $status }, _set: $set) {
    status buy_margin sell_margin min_orders
  }
}`;
export const INSERT_USER_LEVEL = `mutation StaffInsertUserLevel($object: user_levels_insert_input!) {
  insert_user_levels_one(object: $object) { status buy_margin sell_margin min_orders }
}`;
export const DELETE_USER_LEVEL = `mutation StaffDeleteUserLevel($status: String!) {
  delete_user_levels_by_pk(status: $status) { status }
}`;

/** The console's own rule for `_ilike` searches. */
export { containsPattern } from '../../../web/app/admin/search-pattern.ts';
