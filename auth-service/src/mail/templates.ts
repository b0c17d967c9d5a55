import { isLocale } from '@app/shared/i18n';
import { serverT, type AuthMailSource, type TextOf } from '@app/shared/i18n/server';
import { escapeHtml, type MailMessage } from '@app/shared/mail';

import { describeAddress, describeDevice } from './device.ts';

/*
 * E-mail templates in en, ru and ua, worded by the shared server catalog
 * (@app/shared/i18n/server, namespace authMail). Security mails carry no text the client wrote
 * (SECURITY.md 22): the device is the browser and OS a parser recognised (./device.ts), the
 * address is shown only when it is an IP address, and links are built here from configuration
 * only. The account's own e-mail address (validated at sign-up) still goes through escapeHtml
 * before it reaches the HTML part, as every value does.
 */

export { escapeHtml };

export interface RequestDetails {
  ip: string | null;
  userAgent: string | null;
}

type AuthMailText = TextOf<AuthMailSource>;

/** A letter worded by the auth-mail catalog of its locale. */
type Template<Input> = (
  t: AuthMailText,
  input: Input,
) => {
  subject: string;
  paragraphs: string[];
  action?: { label: string; href: string };
};

interface CodeInput {
  code: string;
  email: string;
  minutes: number;
  device: string;
  ip: string;
}

const CODE: Template<CodeInput> = (t, i) => ({
  subject: t('code.subject'),
  paragraphs: [
    t('code.intro', { email: i.email, code: i.code }),
    t('code.expires', { count: i.minutes, ip: i.ip, device: i.device }),
    t('code.notYou'),
  ],
});

/** The code that confirms turning two-factor sign-in on or off (accounts without a password). */
const twoFactorCode =
  (on: boolean): Template<CodeInput> =>
  (t, i) => ({
    subject: on ? t('twoFactorCode.subjectOn') : t('twoFactorCode.subjectOff'),
    paragraphs: [
      on
        ? t('twoFactorCode.introOn', { email: i.email, code: i.code })
        : t('twoFactorCode.introOff', { email: i.email, code: i.code }),
      t('code.expires', { count: i.minutes, ip: i.ip, device: i.device }),
      t('twoFactorCode.notYou'),
    ],
  });

const TWO_FACTOR_CODE = { on: twoFactorCode(true), off: twoFactorCode(false) };

/** The code that adds an address to a Telegram account (decision 037). */
const ADD_EMAIL_CODE: Template<CodeInput> = (t, i) => ({
  subject: t('addEmail.subject'),
  paragraphs: [
    t('addEmail.intro', { email: i.email, code: i.code }),
    t('code.expires', { count: i.minutes, ip: i.ip, device: i.device }),
    t('addEmail.notYou'),
  ],
});

interface ChangedInput {
  email: string;
  device: string;
  ip: string;
}

const twoFactorChanged =
  (on: boolean): Template<ChangedInput> =>
  (t, i) => {
    const fields = { email: i.email, ip: i.ip, device: i.device };
    return {
      subject: on ? t('twoFactorChanged.subjectOn') : t('twoFactorChanged.subjectOff'),
      paragraphs: on
        ? [t('twoFactorChanged.introOn', fields), t('twoFactorChanged.notYouOn')]
        : [t('twoFactorChanged.introOff', fields), t('twoFactorChanged.notYouOff')],
    };
  };

const TWO_FACTOR_CHANGED = { on: twoFactorChanged(true), off: twoFactorChanged(false) };

interface ResetInput {
  email: string;
  link: string;
  minutes: number;
}

const RESET: Template<ResetInput> = (t, i) => ({
  subject: t('reset.subject'),
  paragraphs: [t('reset.intro', { email: i.email }), t('reset.expires', { count: i.minutes })],
  action: { label: t('reset.action'), href: i.link },
});

/** An address someone tried to add to a Telegram account belongs to an account already. */
const ADDRESS_TAKEN: Template<ChangedInput> = (t, i) => ({
  subject: t('addEmail.takenSubject'),
  paragraphs: [
    t('addEmail.takenIntro', { email: i.email, ip: i.ip, device: i.device }),
    t('addEmail.takenAdvice'),
  ],
});

const CHANGED: Template<ChangedInput> = (t, i) => ({
  subject: t('passwordChanged.subject'),
  paragraphs: [
    t('passwordChanged.intro', { email: i.email, ip: i.ip, device: i.device }),
    t('passwordChanged.notYou'),
  ],
});

/**
 * Renders a template in the locale (English when the locale is unknown) as text and HTML. The
 * HTML part is worded from the escaped values: the catalog's texts hold no markup.
 */
function render<Input extends object>(
  template: Template<Input>,
  locale: string,
  to: string,
  raw: Input,
): MailMessage {
  const t = serverT(isLocale(locale) ? locale : 'en', 'authMail');
  const plain = template(t, raw);
  const escaped = template(
    t,
    Object.fromEntries(
      Object.entries(raw).map(([key, value]) => [
        key,
        typeof value === 'string' ? escapeHtml(value) : value,
      ]),
    ) as Input,
  );
  const text = [...plain.paragraphs, ...(plain.action ? [plain.action.href] : [])].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    ...escaped.paragraphs.map((p) => `<p>${p}</p>`),
    ...(escaped.action
      ? [`<p><a href="${escaped.action.href}">${escaped.action.label}</a></p>`]
      : []),
    '</body></html>',
  ].join('\n');
  return { to, subject: plain.subject, text, html };
}

/** What a code is for: signing in, or confirming a change of two-factor sign-in. */
export type CodeMailPurpose = 'sign-in' | 'two-factor-on' | 'two-factor-off' | 'add-email';

export const codeMail = (
  locale: string,
  to: string,
  input: { code: string; minutes: number; purpose?: CodeMailPurpose } & RequestDetails,
) => {
  const fields = {
    code: input.code,
    email: to,
    minutes: input.minutes,
    device: describeDevice(locale, input.userAgent),
    ip: describeAddress(locale, input.ip),
  };
  switch (input.purpose ?? 'sign-in') {
    case 'two-factor-on':
      return render(TWO_FACTOR_CODE.on, locale, to, fields);
    case 'two-factor-off':
      return render(TWO_FACTOR_CODE.off, locale, to, fields);
    case 'add-email':
      return render(ADD_EMAIL_CODE, locale, to, fields);
    default:
      return render(CODE, locale, to, fields);
  }
};

export const resetMail = (locale: string, to: string, input: { link: string; minutes: number }) =>
  render(RESET, locale, to, { email: to, link: input.link, minutes: input.minutes });

export const passwordChangedMail = (locale: string, to: string, input: RequestDetails) =>
  render(CHANGED, locale, to, {
    email: to,
    device: describeDevice(locale, input.userAgent),
    ip: describeAddress(locale, input.ip),
  });

/** The notice after two-factor sign-in was turned on or off. */
export const twoFactorChangedMail = (
  locale: string,
  to: string,
  input: { enabled: boolean } & RequestDetails,
) =>
  render(input.enabled ? TWO_FACTOR_CHANGED.on : TWO_FACTOR_CHANGED.off, locale, to, {
    email: to,
    device: describeDevice(locale, input.userAgent),
    ip: describeAddress(locale, input.ip),
  });

/** To an address that already has an account, instead of a code (decision 037). */
export const addressTakenMail = (locale: string, to: string, input: RequestDetails) =>
  render(ADDRESS_TAKEN, locale, to, {
    email: to,
    device: describeDevice(locale, input.userAgent),
    ip: describeAddress(locale, input.ip),
  });
