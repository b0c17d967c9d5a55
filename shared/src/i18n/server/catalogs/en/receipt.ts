/*
 * The receipt PDF's own words (hasura/actions/src/receipts/texts.ts), English: the source the
 * other locales are typed against. Its other labels are the receipt page's (trust.receipt).
 */
export const receipt = {
  cashReference: 'Payout reference',
  memo: 'Memo / tag',
  orderId: 'Order id',
  cash: 'cash',
  /** The line under the figures. */
  footer: 'Times are UTC. Keep this receipt for your records.',
};
