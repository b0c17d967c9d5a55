import { escapeHtml, type MailMessage } from '@app/shared/mail';

import type { Locale } from '#src/i18n';
import { describeAddress, describeDevice } from './device.ts';

/*
 * E-mail templates in en, ru and ua. Security mails carry no text the client wrote
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

type Template<Input> = Record<
  Locale,
  (input: Input) => {
    subject: string;
    paragraphs: string[];
    action?: { label: string; href: string };
  }
>;

interface CodeInput {
  code: string;
  email: string;
  minutes: number;
  device: string;
  ip: string;
}

const CODE: Template<CodeInput> = {
  en: (i) => ({
    subject: 'Your sign-in code',
    paragraphs: [
      `Your code to sign in as ${i.email}: ${i.code}`,
      `It expires in ${i.minutes} minutes. Requested from ${i.ip}, ${i.device}.`,
      'If this was not you, ignore this e-mail and consider changing your password.',
    ],
  }),
  ru: (i) => ({
    subject: 'Ваш код для входа',
    paragraphs: [
      `Код для входа в аккаунт ${i.email}: ${i.code}`,
      `Код действует ${i.minutes} минут. Запрошен с ${i.ip}, ${i.device}.`,
      'Если это были не вы, проигнорируйте письмо и смените пароль.',
    ],
  }),
  ua: (i) => ({
    subject: 'Ваш код для входу',
    paragraphs: [
      `Код для входу в обліковий запис ${i.email}: ${i.code}`,
      `Код дійсний ${i.minutes} хвилин. Запитано з ${i.ip}, ${i.device}.`,
      'Якщо це були не ви, проігноруйте лист і змініть пароль.',
    ],
  }),
};

interface TwoFactorCodeInput {
  code: string;
  email: string;
  minutes: number;
  device: string;
  ip: string;
}

/** The code that confirms turning two-factor sign-in on or off (accounts without a password). */
const twoFactorCode = (on: boolean): Template<TwoFactorCodeInput> => ({
  en: (i) => ({
    subject: on
      ? 'Confirm turning on two-factor sign-in'
      : 'Confirm turning off two-factor sign-in',
    paragraphs: [
      `Your code to turn ${on ? 'on' : 'off'} two-factor sign-in for ${i.email}: ${i.code}`,
      `It expires in ${i.minutes} minutes. Requested from ${i.ip}, ${i.device}.`,
      'If this was not you, do not share the code: someone is signed in to your account. Reset your password now.',
    ],
  }),
  ru: (i) => ({
    subject: on
      ? 'Подтвердите включение двухфакторного входа'
      : 'Подтвердите отключение двухфакторного входа',
    paragraphs: [
      `Код для ${on ? 'включения' : 'отключения'} двухфакторного входа в аккаунт ${i.email}: ${i.code}`,
      `Код действует ${i.minutes} минут. Запрошен с ${i.ip}, ${i.device}.`,
      'Если это были не вы, никому не сообщайте код: кто-то вошёл в ваш аккаунт. Немедленно сбросьте пароль.',
    ],
  }),
  ua: (i) => ({
    subject: on
      ? 'Підтвердіть увімкнення двофакторного входу'
      : 'Підтвердіть вимкнення двофакторного входу',
    paragraphs: [
      `Код для ${on ? 'увімкнення' : 'вимкнення'} двофакторного входу в обліковий запис ${i.email}: ${i.code}`,
      `Код дійсний ${i.minutes} хвилин. Запитано з ${i.ip}, ${i.device}.`,
      'Якщо це були не ви, нікому не повідомляйте код: хтось увійшов у ваш обліковий запис. Негайно скиньте пароль.',
    ],
  }),
});

const TWO_FACTOR_CODE = { on: twoFactorCode(true), off: twoFactorCode(false) };

interface TwoFactorChangedInput {
  email: string;
  device: string;
  ip: string;
}

const twoFactorChanged = (on: boolean): Template<TwoFactorChangedInput> => ({
  en: (i) => ({
    subject: on ? 'Two-factor sign-in is on' : 'Two-factor sign-in is off',
    paragraphs: on
      ? [
          `Two-factor sign-in was just turned on for ${i.email} from ${i.ip}, ${i.device}. Signing in with your password will also ask for a code sent to this address.`,
          'If this was not you, reset your password now and contact support.',
        ]
      : [
          `Two-factor sign-in was just turned off for ${i.email} from ${i.ip}, ${i.device}. Your password alone now signs you in.`,
          'If this was not you, reset your password now, turn two-factor sign-in back on and contact support.',
        ],
  }),
  ru: (i) => ({
    subject: on ? 'Двухфакторный вход включён' : 'Двухфакторный вход отключён',
    paragraphs: on
      ? [
          `Для аккаунта ${i.email} только что включён двухфакторный вход с ${i.ip}, ${i.device}. При входе по паролю мы также попросим код, отправленный на этот адрес.`,
          'Если это были не вы, немедленно сбросьте пароль и напишите в поддержку.',
        ]
      : [
          `Для аккаунта ${i.email} только что отключён двухфакторный вход с ${i.ip}, ${i.device}. Теперь для входа достаточно пароля.`,
          'Если это были не вы, немедленно сбросьте пароль, снова включите двухфакторный вход и напишите в поддержку.',
        ],
  }),
  ua: (i) => ({
    subject: on ? 'Двофакторний вхід увімкнено' : 'Двофакторний вхід вимкнено',
    paragraphs: on
      ? [
          `Для облікового запису ${i.email} щойно увімкнено двофакторний вхід з ${i.ip}, ${i.device}. Під час входу за паролем ми також попросимо код, надісланий на цю адресу.`,
          'Якщо це були не ви, негайно скиньте пароль і напишіть у підтримку.',
        ]
      : [
          `Для облікового запису ${i.email} щойно вимкнено двофакторний вхід з ${i.ip}, ${i.device}. Тепер для входу достатньо пароля.`,
          'Якщо це були не ви, негайно скиньте пароль, знову увімкніть двофакторний вхід і напишіть у підтримку.',
        ],
  }),
});

const TWO_FACTOR_CHANGED = { on: twoFactorChanged(true), off: twoFactorChanged(false) };

interface ResetInput {
  email: string;
  link: string;
  minutes: number;
}

const RESET: Template<ResetInput> = {
  en: (i) => ({
    subject: 'Reset your password',
    paragraphs: [
      `Someone asked to reset the password of ${i.email}.`,
      `The link works once, for ${i.minutes} minutes. If it was not you, ignore this e-mail.`,
    ],
    action: { label: 'Set a new password', href: i.link },
  }),
  ru: (i) => ({
    subject: 'Сброс пароля',
    paragraphs: [
      `Запрошен сброс пароля для ${i.email}.`,
      `Ссылка одноразовая и действует ${i.minutes} минут. Если это были не вы, проигнорируйте письмо.`,
    ],
    action: { label: 'Задать новый пароль', href: i.link },
  }),
  ua: (i) => ({
    subject: 'Скидання пароля',
    paragraphs: [
      `Запитано скидання пароля для ${i.email}.`,
      `Посилання одноразове і дійсне ${i.minutes} хвилин. Якщо це були не ви, проігноруйте лист.`,
    ],
    action: { label: 'Встановити новий пароль', href: i.link },
  }),
};

interface ChangedInput {
  email: string;
  device: string;
  ip: string;
}

const CHANGED: Template<ChangedInput> = {
  en: (i) => ({
    subject: 'Your password was changed',
    paragraphs: [
      `The password of ${i.email} was just changed from ${i.ip}, ${i.device}. All other sessions were signed out.`,
      'If this was not you, reset your password now and contact support.',
    ],
  }),
  ru: (i) => ({
    subject: 'Ваш пароль изменён',
    paragraphs: [
      `Пароль аккаунта ${i.email} только что изменён с ${i.ip}, ${i.device}. Все другие сеансы завершены.`,
      'Если это были не вы, немедленно сбросьте пароль и напишите в поддержку.',
    ],
  }),
  ua: (i) => ({
    subject: 'Ваш пароль змінено',
    paragraphs: [
      `Пароль облікового запису ${i.email} щойно змінено з ${i.ip}, ${i.device}. Усі інші сеанси завершено.`,
      'Якщо це були не ви, негайно скиньте пароль і напишіть у підтримку.',
    ],
  }),
};

/** Renders a template in the locale (English when the locale is unknown) as text and HTML. */
function render<Input extends object>(
  template: Template<Input>,
  locale: string,
  to: string,
  raw: Input,
): MailMessage {
  const pick = Object.hasOwn(template, locale) ? template[locale as Locale] : template.en;
  const plain = pick(raw);
  const escaped = pick(
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
export type CodeMailPurpose = 'sign-in' | 'two-factor-on' | 'two-factor-off';

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
