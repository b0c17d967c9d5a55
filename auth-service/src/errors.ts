import type { Locale, Messages } from './i18n.ts';

/**
 * The error catalog: every code the service answers with, its HTTP status, and its message in
 * each locale. Codes are stable (clients branch on them); messages are for people. `sensitive`
 * marks codes that must never be replaced by a more specific one, because the difference would
 * tell an attacker whether an account exists (hasura-auth's conceal-errors idea, always on).
 */
export const ERRORS = {
  'invalid-request': {
    status: 400,
    messages: {
      en: 'The request is invalid',
      ru: 'Некорректный запрос',
      ua: 'Некоректний запит',
    },
  },
  'invalid-json': {
    status: 400,
    messages: {
      en: 'The request body is not valid JSON',
      ru: 'Тело запроса не является корректным JSON',
      ua: 'Тіло запиту не є коректним JSON',
    },
  },
  'unsupported-media-type': {
    status: 415,
    messages: {
      en: 'Send the request body as application/json (UTF-8)',
      ru: 'Отправьте тело запроса как application/json (UTF-8)',
      ua: 'Надішліть тіло запиту як application/json (UTF-8)',
    },
  },
  'payload-too-large': {
    status: 413,
    messages: {
      en: 'The request body is too large',
      ru: 'Тело запроса слишком большое',
      ua: 'Тіло запиту завелике',
    },
  },
  'field-required': {
    status: 400,
    messages: { en: 'The field is required', ru: 'Поле обязательно', ua: "Поле обов'язкове" },
  },
  'invalid-email': {
    status: 400,
    messages: {
      en: 'Invalid email',
      ru: 'Некорректный адрес электронной почты',
      ua: 'Некоректна адреса електронної пошти',
    },
  },
  'passwords-do-not-match': {
    status: 400,
    messages: {
      en: 'The passwords do not match',
      ru: 'Пароли не совпадают',
      ua: 'Паролі не збігаються',
    },
  },
  'password-too-short': {
    status: 400,
    messages: {
      en: 'The password must be at least 10 characters long',
      ru: 'Пароль должен содержать не менее 10 символов',
      ua: 'Пароль має містити щонайменше 10 символів',
    },
  },
  'password-too-long': {
    status: 400,
    messages: {
      en: 'The password must be at most 128 characters long',
      ru: 'Пароль должен содержать не более 128 символов',
      ua: 'Пароль має містити не більше 128 символів',
    },
  },
  'password-too-simple': {
    status: 400,
    messages: {
      en: 'Use at least two kinds of characters: lowercase, uppercase, digits, symbols',
      ru: 'Используйте минимум два типа символов: строчные, заглавные, цифры, знаки',
      ua: 'Використайте щонайменше два типи символів: малі, великі літери, цифри, знаки',
    },
  },
  'password-is-email': {
    status: 400,
    messages: {
      en: 'The password must not be your email',
      ru: 'Пароль не должен совпадать с адресом электронной почты',
      ua: 'Пароль не повинен збігатися з адресою електронної пошти',
    },
  },
  'invalid-code-format': {
    status: 400,
    messages: {
      en: 'The code has 6 digits',
      ru: 'Код состоит из 6 цифр',
      ua: 'Код складається з 6 цифр',
    },
  },
  'invalid-email-password': {
    status: 401,
    sensitive: true,
    messages: {
      en: 'Incorrect email or password',
      ru: 'Неверный адрес электронной почты или пароль',
      ua: 'Невірна адреса електронної пошти або пароль',
    },
  },
  'invalid-code': {
    // 400, not 401: the client treats any 401 from this service as "sign in again".
    status: 400,
    messages: { en: 'Invalid code', ru: 'Неверный код', ua: 'Невірний код' },
  },
  'invalid-ticket': {
    status: 400,
    messages: {
      en: 'The code has expired or was used up. Sign in again to get a new one',
      ru: 'Код истёк или исчерпан. Войдите снова, чтобы получить новый',
      ua: 'Код прострочений або вичерпаний. Увійдіть знову, щоб отримати новий',
    },
  },
  'email-already-in-use': {
    status: 409,
    messages: {
      en: 'An account with this email already exists',
      ru: 'Аккаунт с таким адресом уже существует',
      ua: 'Обліковий запис з такою адресою вже існує',
    },
  },
  'user-disabled': {
    status: 403,
    messages: {
      en: 'This account is disabled',
      ru: 'Этот аккаунт отключён',
      ua: 'Цей обліковий запис вимкнено',
    },
  },
  'invalid-refresh-token': {
    status: 401,
    sensitive: true,
    messages: {
      en: 'The session has expired, sign in again',
      ru: 'Сессия истекла, войдите снова',
      ua: 'Сесія закінчилася, увійдіть знову',
    },
  },
  'invalid-access-token': {
    status: 401,
    messages: {
      en: 'The session has expired, sign in again',
      ru: 'Сессия истекла, войдите снова',
      ua: 'Сесія закінчилася, увійдіть знову',
    },
  },
  'invalid-current-password': {
    // 403 rather than 401, so a typo does not sign the user out (client rule for 401).
    status: 403,
    messages: {
      en: 'The current password is incorrect',
      ru: 'Текущий пароль неверен',
      ua: 'Поточний пароль невірний',
    },
  },
  'two-factor-needs-email': {
    status: 409,
    messages: {
      en: 'Two-factor sign-in needs a confirmed email address on your account',
      ru: 'Для двухфакторного входа в аккаунте нужен подтверждённый адрес электронной почты',
      ua: 'Для двофакторного входу в обліковому записі потрібна підтверджена адреса електронної пошти',
    },
  },
  'invalid-reset-token': {
    status: 400,
    messages: {
      en: 'The link is invalid or has expired. Request a new one',
      ru: 'Ссылка недействительна или устарела. Запросите новую',
      ua: 'Посилання недійсне або застаріле. Запитайте нове',
    },
  },
  'invalid-init-data': {
    status: 401,
    messages: {
      en: 'Telegram sign-in data is invalid',
      ru: 'Данные входа Telegram недействительны',
      ua: 'Дані входу Telegram недійсні',
    },
  },
  'init-data-expired': {
    status: 401,
    messages: {
      en: 'Telegram sign-in data has expired, reopen the app',
      ru: 'Данные входа Telegram устарели, откройте приложение заново',
      ua: 'Дані входу Telegram застаріли, відкрийте застосунок знову',
    },
  },
  'origin-not-allowed': {
    status: 403,
    messages: {
      en: 'Requests from this origin are not allowed',
      ru: 'Запросы с этого источника запрещены',
      ua: 'Запити з цього джерела заборонені',
    },
  },
  'too-many-requests': {
    status: 429,
    messages: {
      en: 'Too many attempts. Please try again later',
      ru: 'Слишком много попыток. Повторите позже',
      ua: 'Забагато спроб. Спробуйте пізніше',
    },
  },
  'not-found': {
    status: 404,
    messages: { en: 'Not found', ru: 'Не найдено', ua: 'Не знайдено' },
  },
  'service-unavailable': {
    // The database is restarting or unreachable: nothing happened, the same request may be sent again.
    status: 503,
    messages: {
      en: 'The service is briefly unavailable. Please try again in a moment',
      ru: 'Сервис ненадолго недоступен. Повторите попытку через минуту',
      ua: 'Сервіс ненадовго недоступний. Спробуйте ще раз за хвилину',
    },
  },
  'internal-error': {
    status: 500,
    messages: {
      en: 'Something went wrong',
      ru: 'Что-то пошло не так',
      ua: 'Щось пішло не так',
    },
  },
} as const satisfies Record<string, { status: number; sensitive?: true; messages: Messages }>;

export type ErrorCode = keyof typeof ERRORS;

export interface AuthErrorData {
  /** The request field the error is about, for forms. */
  field?: string;
  /** Seconds until a rate-limited request may be retried (sent as Retry-After). */
  retryAfter?: number;
}

const BRAND = Symbol.for('auth-service.AuthError');

/** An expected failure with a catalog code; the error middleware turns it into JSON. */
export class AuthError extends Error {
  override name = 'AuthError';
  readonly [BRAND] = true;
  constructor(
    readonly code: ErrorCode,
    readonly data: AuthErrorData = {},
  ) {
    super(code);
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  /** Works across module copies, where `instanceof` would not. */
  static is(error: unknown): error is AuthError {
    return typeof error === 'object' && error !== null && BRAND in error;
  }
}

/** The response body for a code: `{ code, message }` (plus `field` for form errors). */
export function errorBody(code: ErrorCode, locale: Locale, data: AuthErrorData = {}) {
  return {
    code,
    message: ERRORS[code].messages[locale],
    ...(data.field === undefined ? {} : { field: data.field }),
  };
}
