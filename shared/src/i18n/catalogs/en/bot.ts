/** The Telegram bot's messages and buttons (plain text: no parse mode). */
export const bot = {
  start: {
    greeting:
      'Hello, {{name}}! Exchange crypto and cash, buy crypto and pay for goods and services in crypto — right here in Telegram.\n\nOpen the exchange to pick a pair and an amount; an operator sends payment details in 2–10 minutes.',
    open: 'Open the exchange',
    openPair: 'Exchange {{from}} for {{to}}',
    openOrder: 'Open the order',
  },
  /** /start link_<token>: linking a portal account's Telegram (decision 037). */
  link: {
    done: 'Linked: you’ll get your order notifications here. Your orders from the website are in the exchange too.',
    already: 'This Telegram is already linked to that account. Your order notifications come here.',
    invalid:
      'This link has expired or was already used. Open Settings on the website and press “Link Telegram” again.',
    taken:
      'This Telegram already has its own account here, with orders or an e-mail, so it cannot be linked to another one. Sign in on the website with that account, or unlink Telegram there first.',
    sandbox:
      'The sandbox does not link accounts: its Telegram users are not real ones. Link with the real bot.',
    otherTelegram:
      'That account is already linked to another Telegram. Unlink it in Settings on the website first.',
  },
  menu: 'Exchange',
  commands: {
    start: 'Open the exchange',
    history: 'Your latest orders',
    help: 'What this bot can do',
    support: 'How to reach support',
  },
  history: {
    title: 'Your latest orders:',
    row: '№{{number}} · {{send}} → {{receive}} · {{status}}',
    empty: 'You have no orders yet. Open the exchange to create one.',
    noAccount: 'You have no orders yet: open the exchange once to sign in with Telegram.',
    open: '№{{number}}',
  },
  help: {
    text: 'What I can do:\n/start — open the exchange\n/history — your latest orders\n/support — how to reach support\n\nI also message you when one of your orders changes status.',
  },
  support: {
    text: 'Support answers 24/7.\nE-mail: {{email}}\nTelegram: {{telegram}}\nNews channel: {{channel}}\n\nOr write to us through the contact form:',
    form: 'Contact form',
  },
  status: {
    changed: 'Order №{{number}}: {{status}}.',
    waiting_for_payment: 'Payment details are ready in the order.',
    paid: 'Payment received; the payout is on its way.',
    completed: 'This transfer was successfully completed.',
    canceled: 'The order was canceled.',
    on_hold:
      'Our compliance team is reviewing the payment, as the AML policy requires. Your money is safe; the order shows what you can do.',
    needs_user_action:
      'The payment needs your decision: open the order to continue at the current rate or get a refund.',
    refund_in_progress: 'We are sending your money back; the order shows where.',
    refunded: 'The refund was sent; the order shows its transaction ID.',
    expired:
      'No payment arrived in time. If you already paid, write to support with the order number: a late payment is never lost.',
    holdCategories: {
      aml_review: 'Routine AML review of the incoming transfer.',
      source_of_funds: 'We need to confirm where the funds come from.',
      sanctions_screening: 'The sending address or bank is being screened against sanctions lists.',
      identity_verification: 'We need to confirm the identity of the payer.',
    },
    actionReasons: {
      underpaid: 'We received {{received}} instead of {{expected}}.',
      overpaid: 'We received {{received}} instead of {{expected}}.',
      late_payment: 'Your payment of {{received}} arrived after the payment window closed.',
      refund_required:
        'After the review we cannot accept these funds; open the order to tell us where to return them.',
    },
    open: 'Open the order',
  },
  /** Issue 25: a payment a chain watcher saw to the order's deposit address. */
  chain: {
    seen: 'Order №{{number}}: payment seen, {{amount}}, {{confirmations}} of {{required}} confirmations. The order moves on by itself once it is confirmed.',
  },
  staff: {
    chainUnexpected:
      'A payment of {{amount}} on {{network}} reached the address of order №{{number}}, which is {{status}}: it did not move the order. Transaction {{tx}}',
    chainNoOrder:
      'A payment of {{amount}} on {{network}} reached a deposit address no waiting order could take. Transaction {{tx}}',
    newOrder: 'New order №{{number}}: {{send}} → {{receive}}\nE-mail: {{email}}',
    requisitesLate:
      'Order №{{number}}: payment details are late (due {{due}} UTC, created {{created}} UTC).\n{{send}} → {{receive}}',
    newSupport: 'Support request from {{name}} <{{email}}>{{order}}:\n{{message}}',
    supportOrder: ', order {{order}}',
    openConsole: 'Open in the console',
    markHandled: 'Mark handled',
    handled: 'Handled by {{who}}.',
    handledAlready: 'Already handled.',
    notStaff: 'Only staff whose Telegram is linked to their account can do this.',
    notFound: 'This request no longer exists.',
  },
  fallback: 'Send /start to open the exchange, or /help to see what I can do.',
  /** A press on a button the bot no longer knows (an old message's): a toast. */
  staleButton: 'This button no longer works. Send /start to begin again.',
  group: {
    private: 'Your exchanges and orders are private: open them in our chat.',
    openChat: 'Open the chat with the bot',
  },
} as const;
