/*
 * The order e-mails (hasura/actions/src/notifications/order-templates.ts), English: the source
 * the other locales are typed against. Values arrive display-ready ({{send}} is `0.015 BTC`);
 * the letter is escaped as a whole when it becomes HTML, so these texts are plain text.
 */
export const orderMail = {
  cash: 'cash',
  words: {
    youSend: 'You send',
    youReceive: 'You receive',
    payoutTo: 'Payout to',
    payoutMemo: 'Payout memo / tag',
    requisitesBy: 'Payment details by',
    payBy: 'Payment must arrive by',
    reason: 'Reason',
    payoutTx: 'Payout transaction ID',
    expected: 'Expected',
    received: 'Received',
    refundAmount: 'Refund',
    refundTo: 'Refund to',
    refundMemo: 'Memo / tag',
    refundTx: 'Refund transaction ID',
    open: 'Open the order',
  },
  /** The side-state texts (wording shared with the order page's trust texts). */
  holdCategories: {
    aml_review: 'Routine AML review of the incoming transfer.',
    source_of_funds: 'We need to confirm where the funds come from.',
    sanctions_screening: 'The sending address or bank is being screened against sanctions lists.',
    identity_verification: 'We need to confirm the identity of the payer.',
  },
  holdWhatToDo: {
    aml_review: 'Nothing for now: most reviews finish within a few hours. We will e-mail you.',
    source_of_funds:
      'Reply to our e-mail, or write to support, with a document showing where the funds come from (exchange statement, invoice, payslip).',
    sanctions_screening:
      'Nothing for now. If we need more, we will e-mail you; you may also write to support.',
    identity_verification:
      'Reply to our e-mail, or write to support, with an identity document of the payer.',
  },
  created: {
    subject: 'Order #{{number}} created',
    intro: 'Thank you. Your order #{{number}} is created.',
    detailsBy:
      'An operator will prepare the payment details by {{due}} (usually within 2-10 minutes). We will e-mail you as soon as they are ready; you will see them on the order page when signed in.',
    detailsSoon:
      'An operator will prepare the payment details in 2-10 minutes. We will e-mail you as soon as they are ready; you will see them on the order page when signed in.',
    secretLinkIntro:
      'You can also follow this order without signing in, with its secret link. Anyone who has this link can follow the order (read-only), so keep it private and do not forward this e-mail.',
    secretLinkLabel: 'Follow the order',
  },
  waitingForPayment: {
    subject: 'Order #{{number}}: payment details are ready',
    intro:
      'The payment details for order #{{number}} are ready on the order page. Sign in and open the order to see them: they are shown next to your anti-phishing phrase. If the phrase is missing or different, the page is not ours: do not pay.',
    requoted:
      'The operator was late, so we re-quoted your order at the better rate: you get {{receive}} instead of {{quoted}}.',
    sendBy:
      'Please send exactly {{send}}; the payment must arrive by {{payBy}}. Until you pay, you can cancel the order on its page.',
    send: 'Please send exactly {{send}}. Until you pay, you can cancel the order on its page.',
    neverByMail:
      'We never send payment details by e-mail or in Telegram: a message that gives you an address or an account to pay to is not from us.',
  },
  paid: {
    subject: 'Order #{{number}}: payment received',
    settled:
      'We have received your payment for order #{{number}}. As you chose, the {{received}} that arrived was exchanged at the current rate: the service is sending you {{receive}}; this may take some time.',
    intro:
      'We have received your payment for order #{{number}}. The service is sending you {{receive}}; this may take some time.',
  },
  completed: {
    subject: 'Order #{{number}} completed',
    intro: 'Order #{{number}}: this transfer was successfully completed.',
    youReceived: 'You received',
  },
  canceled: {
    subject: 'Order #{{number}} canceled',
    byUser: 'Order #{{number}} was canceled at your request.',
    byStaff: 'Order #{{number}} was canceled by the service.',
    again: 'To exchange again, return to the main page and create a new order.',
    home: 'Main page',
  },
  onHold: {
    subject: 'Order #{{number}}: payment on hold',
    intro:
      'Your payment for order #{{number}} is on hold. Our compliance team is reviewing the incoming funds, as the AML policy requires. Your money is safe and nothing is lost while we look.',
    whatToDo: 'What you can do: {{whatToDo}}',
    support: 'Write to support',
  },
  needsUserAction: {
    subject: 'Order #{{number}}: we need your decision',
    refundRequired:
      'After the review we cannot accept the funds of order #{{number}}; they will be returned to you.',
    latePayment:
      'Your payment of {{received}} for order #{{number}} arrived after the payment window closed.',
    wrongAmount: 'We received {{received}} for order #{{number}} instead of {{send}}.',
    decide: 'Order #{{number}} needs your decision about the payment that arrived.',
    whereToReturn:
      'Open the order and tell us where to return them: an address on the network you paid from, or an IBAN when you paid by bank.',
    choose:
      'Open the order and choose: continue at the current rate with the amount that arrived, or get a refund. Nothing happens until you choose; a late or different payment is never lost.',
    action: 'Choose on the order page',
  },
  refundInProgress: {
    subject: 'Order #{{number}}: refund in progress',
    cash: 'Your cash for order #{{number}} is waiting at the cash point; the operator will tell you when to collect it.',
    sendingTo: 'We are sending {{amount}} back to {{to}} (order #{{number}}).',
    sending: 'We are sending {{amount}} back to you (order #{{number}}).',
    willMail: 'We will e-mail you when the refund is sent.',
  },
  refunded: {
    subject: 'Order #{{number}} refunded',
    intro: 'The refund for order #{{number}} was sent.',
  },
  expired: {
    subject: 'Order #{{number}} expired',
    notBy: 'No payment for order #{{number}} arrived by {{payBy}}, so the order expired.',
    notInTime: 'No payment for order #{{number}} arrived in time, so the order expired.',
    alreadySent:
      'If you already sent it, contact support with the order number: a late payment is never lost, you will be asked to continue at the current rate or take a refund.',
    again: 'To exchange again, create a new order on the main page.',
    support: 'Contact support',
  },
};
