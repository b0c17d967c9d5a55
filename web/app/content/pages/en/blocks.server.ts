/*
 * Sentences every English product and partner page shares: the order's steps, the limits of
 * spec section 9 and the common questions. One wording of each rule keeps the pages consistent.
 */
import type { FaqEntry, PageStep } from '../types.ts';

export const steps = {
  operator: {
    title: 'The operator sends payment details',
    text: 'Your order waits for the operator, who adds the payment details within 2–10 minutes, usually sooner. The order page refreshes by itself, and the details also come by e-mail.',
  },
  payCrypto: {
    title: 'Send the crypto',
    text: 'Send exactly the amount shown to the wallet address on the order page (a QR code is there too). Until you pay you can still cancel the order.',
  },
  payBank: {
    title: 'Pay by bank transfer',
    text: 'Transfer the amount to the bank details on the order page: beneficiary, account number, SWIFT/BIC, bank address and the payment reference. Put the reference in the transfer so the payment is matched to your order. Until you pay you can still cancel.',
  },
  payCash: {
    title: 'Hand over the cash',
    text: 'The operator tells you where and when to bring the cash. Until you pay you can still cancel the order.',
  },
  payoutCrypto: {
    title: 'Receive the payout',
    text: 'Once your payment arrives the order is marked paid and the service sends the payout to your wallet. The completed order shows the transaction ID of the payout.',
  },
  payoutBank: {
    title: 'The bank transfer goes out',
    text: 'Once your crypto arrives the order is marked paid and the service sends the bank transfer to the IBAN in the order. The completed order shows the ID of the payout.',
  },
  payoutCash: {
    title: 'Collect the cash',
    text: 'Once your crypto arrives the order is marked paid and the operator arranges the cash handover with you. The order is then marked completed.',
  },
} satisfies Record<string, PageStep>;

export const limits = {
  operator: 'Payment details arrive 2–10 minutes after you create the order.',
  rateFixed:
    'The rate is fixed when the order is created; market moves after that do not change your amounts.',
  crypto:
    'Crypto orders are processed semi-automatically, usually within 60 minutes after your transaction appears on the network (0 confirmations).',
  window:
    'Directions with UAH or cash are processed daily from 09:00 to 23:00 Kyiv time (UTC+3); orders created after 22:30 are processed the next morning.',
  minMax:
    'The exchange form shows the minimum and maximum amount of each currency before you create the order.',
  aml: 'Incoming crypto is checked under the AML/CTF policy; funds of suspicious origin may be frozen until the check is complete.',
  trc20: 'USDT payouts go to a TRC20 (TRON network) address.',
};

export const faq = {
  account: {
    q: 'Do I need to register?',
    a: 'No. Enter your e-mail in the order form and we sign you in with it; if the address already has an account, you confirm it with a 6-digit code sent there. No password is needed, and the account keeps your order history and your level.',
  },
  cancel: {
    q: 'Can I cancel an order?',
    a: 'Yes, while the order is waiting for payment: use "Cancel the exchange" on the order page. Once you have paid, do not cancel; write to support with the order number instead.',
  },
  late: {
    q: 'What happens if I order late in the evening?',
    a: 'Directions with UAH or cash work from 09:00 to 23:00 Kyiv time (UTC+3). An order created after 22:30 keeps its rate and is processed the next morning.',
  },
  aml: {
    q: 'Can my funds be frozen?',
    a: 'Every incoming crypto transfer goes through an AML check. Funds linked to sanctioned platforms or otherwise suspicious are frozen while the case is investigated, and we may ask you to confirm your identity and the origin of the funds (KYC). Clean funds are processed normally.',
  },
  levels: {
    q: 'Do regular customers get better rates?',
    a: 'Yes. Your level grows with completed orders: bronze from 5, silver from 20, gold from 50 and platinum from 150. Each level has a lower margin, applied automatically to new orders.',
  },
  support: {
    q: 'How do I reach support?',
    a: 'Through the contact form (add your order number), by e-mail or in Telegram. Support answers around the clock.',
  },
} satisfies Record<string, FaqEntry>;
