/** The Telegram mini-app's own texts (the rest comes from exchange, home and account). */
export const miniapp = {
  title: 'Exchange',
  signingIn: 'Signing you in…',
  signIn: {
    'invalid-init-data': {
      title: 'We could not confirm your Telegram account',
      text: 'The launch data did not pass the check. Close the app and open it again from the bot.',
    },
    'init-data-expired': {
      title: 'This launch has expired',
      text: 'Close the app and open it again from the bot to sign in.',
    },
    'init-data-from-future': {
      title: 'Our clock is behind Telegram’s',
      text: 'This launch is dated ahead of our server’s time. That is our fault; try again in a minute.',
    },
    'too-many-requests': {
      title: 'Too many sign-ins just now',
      text: 'Too many sign-ins came from your network. Try again in {{wait}}.',
    },
    'user-disabled': {
      title: 'This account is blocked',
      text: 'Write to support if you think this is a mistake.',
    },
    'network-error': {
      title: 'No connection',
      text: 'Check your internet connection and try again.',
    },
    other: {
      title: 'Sign-in failed',
      text: 'Something went wrong on our side. Try again in a minute.',
    },
    retry: 'Try again',
    close: 'Close',
  },
  outside: {
    title: 'Open this app in Telegram',
    text: 'The exchange app signs you in with your Telegram account, so it opens from our bot. On a computer, use the website.',
    website: 'Go to the website',
  },
  exchange: {
    continue: 'Continue',
    pick: 'Choose a currency',
    details: 'Your details',
    emailFromAccount: 'From your account',
    scanQr: 'Scan the wallet’s QR code',
    scanTitle: 'Point the camera at your wallet’s receive QR code',
    scanNoAddress: 'This QR code holds no wallet address. Scan the code your wallet shows under “Receive”.',
  },
  nav: {
    history: 'History',
    newExchange: 'New exchange',
    exchange: 'Exchange',
    historyEmptyHint: 'Pick a pair and an amount on the exchange screen; it takes a minute.',
  },
  transaction: {
    cancelKeep: 'Keep the order',
    cancelYes: 'Yes, cancel it',
  },
  /** The person said no to Telegram's write-access request (decision 039). */
  chatNotifications: {
    off: 'Chat notifications are off: the bot cannot write to you. To get order updates in Telegram, open the bot and press Start.',
    ok: 'OK',
  },
  /** The order's trust features (issue 10); most texts are the shared `trust` namespace's. */
  trust: {
    choose: 'What should we do with your payment?',
    refundCashConfirm: 'Request the refund of {{received}}? Cash is returned at the cash point.',
  },
  /** Settings inside the mini-app (issue 22): the anti-phishing phrase. */
  settings: {
    inviteTitle: 'Invite friends',
    inviteText: 'Exchange crypto and cash right in Telegram.',
    share: 'Share the link',
    title: 'Settings',
    notSet: 'Not set yet',
  },
  /** A completed order's receipt inside the mini-app (issue 22). */
  receipt: {
    downloadStarted: 'Telegram is downloading the receipt.',
    downloadDeclined: 'The download was cancelled.',
  },
  loading: 'Loading…',
  retry: 'Try again',
  loadFailed: 'Could not load this. Check the connection and try again.',
} as const;
