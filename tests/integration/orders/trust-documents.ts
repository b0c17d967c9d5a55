/*
 * The order trust suites' fixed values and the documents they send (issue 10): addresses, the
 * secret of order links, and the mutations and queries of the order paths.
 */

export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
export const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const OTHER_BTC_ADDRESS = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
export const DEPOSIT = 'bc1q-service-deposit-0001';
export const IBAN = 'DE89370400440532013000';
export const LINK_SECRET = 'test-order-link-secret-0123456789abcdef';
export const MINUTE = 60_000;

const STATUS = 'id number status';
export const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id number status }
}`;
export const SUPPLY = `mutation ($id: uuid!, $address: String) {
  supplyRequisites(transactionId: $id, depositAddress: $address) { ${STATUS} }
}`;
export const CONFIRM = `mutation ($id: uuid!, $received: numeric) {
  confirmPayment(transactionId: $id, receivedAmount: $received) { ${STATUS} }
}`;
export const HOLD = `mutation ($id: uuid!, $category: String!) {
  holdOrder(transactionId: $id, category: $category) { ${STATUS} }
}`;
export const RELEASE = `mutation ($id: uuid!, $outcome: String!) {
  releaseHold(transactionId: $id, outcome: $outcome) { ${STATUS} }
}`;
export const RESOLVE = `mutation ($id: uuid!, $choice: String!, $address: String, $memo: String) {
  resolvePaymentIssue(transactionId: $id, choice: $choice, refundAddress: $address, refundMemo: $memo) {
    ${STATUS}
  }
}`;
export const REFUNDED = `mutation ($id: uuid!, $tx: String!) {
  completeRefund(transactionId: $id, refundTxId: $tx) { ${STATUS} }
}`;
export const COMPLETE = `mutation ($id: uuid!, $tx: String!) {
  completeExchange(transactionId: $id, payoutTxId: $tx) { ${STATUS} }
}`;
export const CANCEL = `mutation ($id: uuid!) { cancelExchange(transactionId: $id) { ${STATUS} } }`;
export const BY_LINK = `query ($token: String!) {
  orderByLink(token: $token) {
    id number status sendAmount receiveAmount requisitesDueAt payBy queuePosition actionReason
    holdCategory receivedAmount settledReceiveAmount refundTxId payoutTxId
  }
}`;
export const CHECK = `query ($value: String!) { checkRequisites(value: $value) { value verdict kind currency } }`;
export const MINE = `query ($id: uuid!) {
  transactions_by_pk(id: $id) {
    status queue_position requisites_due_at requisites_late_at pay_by action_reason hold_category
    received_amount settled_receive_amount settled_rate refund_address refund_tx_id
  }
}`;
