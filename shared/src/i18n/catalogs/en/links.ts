/**
 * Joining the two worlds (issue 22, decision 037): the portal's Telegram link in Settings, and
 * the mini-app's e-mail section for a Telegram account.
 */
export const links = {
  telegram: {
    title: 'Telegram',
    intro:
      'Link your Telegram to get order notifications in a chat with our bot and to see your orders in the Telegram app.',
    link: 'Link Telegram',
    open: 'Open the bot',
    pending_one: 'Open the link in Telegram and press Start. It works once, for {{count}} minute.',
    pending_other:
      'Open the link in Telegram and press Start. It works once, for {{count}} minutes.',
    check: 'Check',
    notYet: 'Not linked yet: open the link in Telegram and press Start.',
    linked: 'Telegram linked',
    linkedAs: 'Telegram linked: @{{username}}',
    unlink: 'Unlink',
    unlinked: 'Telegram unlinked',
    needsEmail: 'Confirm your email above to link Telegram.',
  },
  email: {
    title: 'E-mail',
    intro: 'Add an e-mail to sign in on the website too: you will see the same orders there.',
    label: 'E-mail',
    send: 'Send a code',
    codeLabel: 'Code from the e-mail',
    codeHint: 'We sent a 6-digit code to {{email}}. It works for 10 minutes.',
    confirm: 'Confirm',
    change: 'Use another address',
    current: 'Your e-mail',
    added:
      'Address confirmed. On the website, sign in with it by a code, or set a password with “Forgot password”.',
  },
};
