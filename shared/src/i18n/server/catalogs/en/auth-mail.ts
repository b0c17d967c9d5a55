/*
 * The auth service's e-mails (auth-service/src/mail/templates.ts), English: the source the other
 * locales are typed against. The HTML part gets every value escaped before it is interpolated;
 * the texts themselves are plain text with no markup. {{count}} is minutes.
 */
export const authMail = {
  code: {
    subject: 'Your sign-in code',
    intro: 'Your code to sign in as {{email}}: {{code}}',
    expires_one: 'It expires in {{count}} minute. Requested from {{ip}}, {{device}}.',
    expires_other: 'It expires in {{count}} minutes. Requested from {{ip}}, {{device}}.',
    notYou: 'If this was not you, ignore this e-mail and consider changing your password.',
  },
  /** The code that confirms turning two-factor sign-in on or off (accounts without a password). */
  twoFactorCode: {
    subjectOn: 'Confirm turning on two-factor sign-in',
    subjectOff: 'Confirm turning off two-factor sign-in',
    introOn: 'Your code to turn on two-factor sign-in for {{email}}: {{code}}',
    introOff: 'Your code to turn off two-factor sign-in for {{email}}: {{code}}',
    notYou:
      'If this was not you, do not share the code: someone is signed in to your account. Reset your password now.',
  },
  twoFactorChanged: {
    subjectOn: 'Two-factor sign-in is on',
    subjectOff: 'Two-factor sign-in is off',
    introOn:
      'Two-factor sign-in was just turned on for {{email}} from {{ip}}, {{device}}. Signing in with your password will also ask for a code sent to this address.',
    introOff:
      'Two-factor sign-in was just turned off for {{email}} from {{ip}}, {{device}}. Your password alone now signs you in.',
    notYouOn: 'If this was not you, reset your password now and contact support.',
    notYouOff:
      'If this was not you, reset your password now, turn two-factor sign-in back on and contact support.',
  },
  /** Adding an address to a Telegram account (decision 037). */
  addEmail: {
    subject: 'Confirm your e-mail address',
    intro: 'Your code to add {{email}} to your account: {{code}}',
    notYou: 'If this was not you, ignore this e-mail: the address is added only with this code.',
    takenSubject: 'This address already has an account',
    takenIntro:
      'Someone asked to add {{email}} to a Telegram account from {{ip}}, {{device}}. This address already has an account here, so it was not added.',
    takenAdvice:
      'If it was you, sign in on the website with this address (a code, or Forgot password) and link Telegram from its settings. If it was not you, ignore this e-mail.',
  },
  reset: {
    subject: 'Reset your password',
    intro: 'Someone asked to reset the password of {{email}}.',
    expires_one:
      'The link works once, for {{count}} minute. If it was not you, ignore this e-mail.',
    expires_other:
      'The link works once, for {{count}} minutes. If it was not you, ignore this e-mail.',
    action: 'Set a new password',
  },
  passwordChanged: {
    subject: 'Your password was changed',
    intro:
      'The password of {{email}} was just changed from {{ip}}, {{device}}. All other sessions were signed out.',
    notYou: 'If this was not you, reset your password now and contact support.',
  },
  /** How a security mail names the request's device and address (auth-service/src/mail/device.ts). */
  device: {
    browserOn: '{{browser}} on {{os}}',
    unknownBrowserOn: 'an unknown browser on {{os}}',
    unknownDevice: 'an unknown device',
    unknownAddress: 'an unknown address',
  },
};
