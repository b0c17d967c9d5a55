import { escapeHtml, type MailMessage } from '@app/shared/mail';

import type { Locale } from '#src/i18n';

/*
 * E-mail templates in en, ru and ua. Every value that a user or a request controls (the
 * e-mail address, the browser's User-Agent, the IP) goes through escapeHtml before it reaches
 * the HTML part; links are built here from configuration only.
 */

export { escapeHtml };

/** One line of at most 200 printable characters, for request-controlled text. */
const oneLine = (value: string | null | undefined): string =>
  (value ?? '')
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .trim()
    .slice(0, 200) || '—';

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

export const codeMail = (
  locale: string,
  to: string,
  input: { code: string; minutes: number } & RequestDetails,
) =>
  render(CODE, locale, to, {
    code: input.code,
    email: to,
    minutes: input.minutes,
    device: oneLine(input.userAgent),
    ip: oneLine(input.ip),
  });

export const resetMail = (locale: string, to: string, input: { link: string; minutes: number }) =>
  render(RESET, locale, to, { email: to, link: input.link, minutes: input.minutes });

export const passwordChangedMail = (locale: string, to: string, input: RequestDetails) =>
  render(CHANGED, locale, to, {
    email: to,
    device: oneLine(input.userAgent),
    ip: oneLine(input.ip),
  });
