/*
 * Issue 10's texts, shared by the web portal and the mini-app: deadlines and the operator's
 * promise, the side states, the anti-phishing phrase, refunds, the secret order link, the
 * requisites check and receipts (docs/decisions/015-order-trust.md).
 */
export const trust = {
  statuses: {
    on_hold: 'On hold',
    needs_user_action: 'Your action needed',
    refund_in_progress: 'Refund in progress',
    refunded: 'Refunded',
    expired: 'Expired',
  },
  deadlines: {
    requisitesIn: 'Payment details expected within {{time}}',
    requisitesBy: 'Payment details expected by {{time}}',
    requisitesLate:
      'The operator is late with the payment details. You may wait, or cancel the order at no cost.',
    cancelNoCost: 'Cancel at no cost',
    payWithin: 'Pay within {{time}}',
    payBy: 'Pay by {{time}}',
    payWindowStarts:
      'Your payment window starts only when the details arrive, so the wait never shortens it.',
    expiringSoon: 'Less than five minutes left to pay.',
    queuePosition: 'Your order is number {{position}} in the operator queue.',
    queueNext: 'Your order is next in the operator queue.',
    offline: 'Operators are offline now. Your order will be handled at {{time}} (UTC{{offset}}).',
    requoted:
      'The operator was late, so we re-quoted your order at the better rate: you get {{amount}} instead of {{quoted}}.',
    lockedRate: 'Rate locked when you created the order: {{rate}}',
  },
  expired: {
    title: 'The order expired',
    text: 'No payment arrived before {{time}}. If you already sent it, contact support with the order number: a late payment is never lost, you will be asked to continue at the current rate or take a refund.',
  },
  hold: {
    title: 'Your payment is on hold',
    text: 'Our compliance team is reviewing the incoming funds, as the AML policy requires. Your money is safe and nothing is lost while we look.',
    categories: {
      aml_review: 'Routine AML review of the incoming transfer.',
      source_of_funds: 'We need to confirm where the funds come from.',
      sanctions_screening: 'The sending address or bank is being screened against sanctions lists.',
      identity_verification: 'We need to confirm the identity of the payer.',
    },
    whatToDo: {
      aml_review: 'Nothing for now: most reviews finish within a few hours. We will e-mail you.',
      source_of_funds:
        'Reply to our e-mail, or write to support, with a document showing where the funds come from (exchange statement, invoice, payslip).',
      sanctions_screening:
        'Nothing for now. If we need more, we will e-mail you; you may also write to support.',
      identity_verification:
        'Reply to our e-mail, or write to support, with an identity document of the payer.',
    },
    contactSupport: 'Write to support',
  },
  action: {
    title: 'We need your decision',
    reasons: {
      underpaid: 'We received {{received}} instead of {{expected}}.',
      overpaid: 'We received {{received}} instead of {{expected}}.',
      late_payment: 'Your payment of {{received}} arrived after the payment window closed.',
      refund_required:
        'After the review we cannot accept these funds; they will be returned to you.',
    },
    continueTitle: 'Continue at the current rate',
    continueText:
      'We exchange the {{received}} that arrived at the current rate; you get about {{estimate}}.',
    continueTextNoEstimate: 'We exchange the {{received}} that arrived at the current rate.',
    continue: 'Continue at the current rate',
    continueConfirm: 'Exchange {{received}} at the current rate?',
    refundTitle: 'Get a refund',
    refundText: 'We send the {{received}} back to you, minus the network fee.',
    refundAddress: 'Refund address ({{network}} network)',
    refundIban: 'IBAN for the refund',
    refundMemo: 'Memo / destination tag (if your wallet needs one)',
    refundCash: 'Cash is returned at the cash point; the operator will tell you when.',
    refund: 'Request the refund',
    refundConfirm: 'Send the refund to {{address}}?',
    chosen: 'Done. We will follow up by e-mail.',
    confirm: 'Confirm',
    back: 'Back',
    settled: 'Exchanged at the current rate: you get {{amount}} (rate {{rate}}).',
    errors: {
      'refund-required': 'These funds cannot be exchanged after the review; choose a refund.',
      'invalid-transition': 'The order has changed meanwhile; the page shows where it stands now.',
      'not-found': 'No such order, or it belongs to another account.',
    },
  },
  refund: {
    inProgressTitle: 'Refund in progress',
    inProgress: 'We are sending {{amount}} back to {{address}}.',
    inProgressCash: 'Your cash is waiting at the cash point.',
    doneTitle: 'Refunded',
    done: 'The refund was sent.',
    txId: 'Refund transaction id or bank reference',
  },
  phishing: {
    label: 'Your anti-phishing phrase',
    shownNext:
      'Check that your phrase appears here. If it is missing or different, this page is not ours: do not pay.',
    notSet:
      'Set an anti-phishing phrase in Settings: we show it next to every payment detail, so you can tell our pages from fakes.',
    setIt: 'Set it now',
    settingsTitle: 'Anti-phishing phrase',
    settingsHint:
      'A phrase only you know (4 to 64 characters). We show it next to payment details on our own pages; we never put it in e-mails or bot messages.',
    settingsField: 'Phrase',
    save: 'Save the phrase',
    saved: 'The anti-phishing phrase is saved.',
    removed: 'The anti-phishing phrase is removed.',
    remove: 'Remove',
    tooShort: 'At least 4 characters',
    tooLong: 'At most 64 characters',
  },
  verify: {
    link: 'Check that these details are ours',
    metaTitle: 'Check payment details',
    title: 'Is this address or account really ours?',
    intro:
      'Paste a deposit address, IBAN or account number you were given. We tell you whether we gave it out.',
    field: 'Address, IBAN or account number',
    submit: 'Check',
    checking: 'Checking…',
    checked: 'Checked: {{value}}',
    active: 'Yes: this is ours and in use now ({{currency}}).',
    retired:
      'This was ours but is no longer used. Do not pay to it; open your order for current details.',
    unknown: 'This is not one of ours. Do not pay to it, and tell support where you saw it.',
    kinds: {
      deposit_address: 'deposit address',
      bank_account: 'bank account',
    },
  },
  lookup: {
    metaTitle: 'Order {{number}}',
    title: 'Order {{number}}',
    readOnly:
      'You opened this order from its secret link: you can follow it here. Sign in with the order’s e-mail to see payment details or act on it.',
    notFound: 'This link is not valid. Check that you copied it whole from the e-mail.',
    signIn: 'Sign in to act on it',
    emailLinkNote: 'Keep this link private: anyone who has it can see the order’s status.',
  },
  receipt: {
    open: 'Receipt',
    metaTitle: 'Receipt for order {{number}}',
    title: 'Receipt',
    order: 'Order',
    date: 'Completed',
    sent: 'Paid',
    received: 'Paid out',
    rate: 'Rate',
    payoutTx: 'Payout transaction id',
    bankReference: 'Bank reference',
    payoutTo: 'Paid out to',
    download: 'Download PDF',
    downloading: 'Preparing the PDF…',
    print: 'Print',
    notCompleted: 'A receipt is available once the order is completed.',
    linkGoneTitle: 'This download link has expired',
    linkGone:
      'Download links work for 10 minutes. Open the receipt in the app again to get a new one.',
    linkUnknownTitle: 'No receipt at this address',
    linkUnknown:
      'The link is incomplete or was altered. Open the receipt in the app to download it.',
  },
  create: {
    payoutMemo: 'Memo / destination tag (optional)',
    payoutMemoHint: 'Only if your wallet or exchange account needs one for deposits.',
    refundAddress: 'Refund address (optional)',
    refundAddressHint:
      'Where we return your {{currency}} if the payment cannot be exchanged. You can also give it later.',
    refundIban: 'IBAN for refunds (optional)',
    refundMemo: 'Refund memo / tag (optional)',
  },
  chain: {
    title: 'Your payment on the chain',
    seen: 'Payment seen: {{amount}}, {{confirmations}} of {{required}} confirmations',
    confirmed: 'Payment confirmed: {{amount}}, {{required}} of {{required}} confirmations',
    dropped:
      'A payment of {{amount}} is no longer in the chain (the network reorganised its latest blocks). If it was yours, it will show again when it is included.',
    explorer: 'View the transaction',
    automatic:
      'We see your payment on the network: the order moves on by itself once it is confirmed.',
  },
  countdown: {
    hoursMinutes: '{{hours}} h {{minutes}} min',
    minutesSeconds: '{{minutes}}:{{seconds}}',
    overdue: 'overdue',
  },
} as const;
