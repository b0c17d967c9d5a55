import type { Messages } from '../../types.ts';
import type { miniapp as source } from '../en/miniapp.ts';

export const miniapp: Messages<typeof source> = {
  title: 'Обмін',
  signingIn: 'Входимо…',
  signIn: {
    'invalid-init-data': {
      title: 'Не вдалося підтвердити ваш акаунт Telegram',
      text: 'Дані запуску не пройшли перевірку. Закрийте застосунок і відкрийте його знову з бота.',
    },
    'init-data-expired': {
      title: 'Термін запуску минув',
      text: 'Закрийте застосунок і відкрийте його знову з бота, щоб увійти.',
    },
    'init-data-from-future': {
      title: 'Наш годинник відстає від Telegram',
      text: 'Час цього запуску випереджає час нашого сервера. Це наша помилка; спробуйте за хвилину.',
    },
    'too-many-requests': {
      title: 'Забагато входів',
      text: 'З вашої мережі надійшло забагато входів. Спробуйте через {{wait}}.',
    },
    'user-disabled': {
      title: 'Цей акаунт заблоковано',
      text: 'Напишіть у підтримку, якщо вважаєте, що це помилка.',
    },
    'network-error': {
      title: 'Немає з’єднання',
      text: 'Перевірте підключення до інтернету та спробуйте знову.',
    },
    other: {
      title: 'Не вдалося увійти',
      text: 'Щось пішло не так на нашому боці. Спробуйте за хвилину.',
    },
    retry: 'Спробувати знову',
    close: 'Закрити',
  },
  outside: {
    title: 'Відкрийте застосунок у Telegram',
    text: 'Застосунок обміну входить через ваш акаунт Telegram, тому відкривається з нашого бота. На комп’ютері користуйтеся сайтом.',
    website: 'Перейти на сайт',
  },
  exchange: {
    continue: 'Продовжити',
    pick: 'Оберіть валюту',
    details: 'Ваші дані',
    emailFromAccount: 'З вашого акаунта',
    scanQr: 'Сканувати QR-код гаманця',
    scanTitle: 'Наведіть камеру на QR-код «Отримати» у вашому гаманці',
    scanNoAddress: 'У цьому QR-коді немає адреси гаманця. Відскануйте код, який гаманець показує в розділі «Отримати».',
  },
  nav: {
    history: 'Історія',
    newExchange: 'Новий обмін',
    exchange: 'Обмін',
    historyEmptyHint: 'Оберіть пару та суму на екрані обміну — це займе хвилину.',
  },
  transaction: {
    cancelKeep: 'Залишити заявку',
    cancelYes: 'Так, скасувати',
  },
  chatNotifications: {
    off: 'Сповіщення в чаті вимкнено: бот не може вам писати. Щоб отримувати новини про заявку в Telegram, відкрийте бота й натисніть «Почати».',
    ok: 'OK',
  },
  trust: {
    choose: 'Що зробити з вашим платежем?',
    refundCashConfirm: 'Запросити повернення {{received}}? Готівка повертається в пункті видачі.',
  },
  /** Settings inside the mini-app (issue 22): the anti-phishing phrase. */
  settings: {
    inviteTitle: 'Запросіть друзів',
    inviteText: 'Обмін криптовалюти й готівки просто в Telegram.',
    share: 'Поділитися посиланням',
    title: 'Налаштування',
    notSet: 'Ще не задана',
  },
  /** A completed order's receipt inside the mini-app (issue 22). */
  receipt: {
    downloadStarted: 'Telegram завантажує квитанцію.',
    downloadDeclined: 'Завантаження скасовано.',
  },
  loading: 'Завантаження…',
  retry: 'Спробувати знову',
  loadFailed: 'Не вдалося завантажити. Перевірте з’єднання та спробуйте знову.',
};
