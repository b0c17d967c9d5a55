import type { Messages } from '../../types.ts';
import type { bot as source } from '../en/bot.ts';

export const bot: Messages<typeof source> = {
  start: {
    greeting:
      'Вітаємо, {{name}}! Обмінюйте криптовалюту й готівку, купуйте криптовалюту та оплачуйте товари й послуги криптовалютою — просто в Telegram.\n\nВідкрийте обмін, оберіть пару та суму; оператор надішле реквізити за 2–10 хвилин.',
    open: 'Відкрити обмін',
    openPair: 'Обміняти {{from}} на {{to}}',
  },
  menu: 'Обмін',
  commands: {
    start: 'Відкрити обмін',
    history: 'Ваші останні заявки',
    help: 'Що вміє цей бот',
    support: 'Як звʼязатися з підтримкою',
  },
  history: {
    title: 'Ваші останні заявки:',
    row: '№{{number}} · {{send}} → {{receive}} · {{status}}',
    empty: 'У вас поки немає заявок. Відкрийте обмін, щоб створити заявку.',
    noAccount: 'У вас поки немає заявок: відкрийте обмін один раз, щоб увійти через Telegram.',
    open: '№{{number}}',
  },
  help: {
    text: 'Що я вмію:\n/start — відкрити обмін\n/history — ваші останні заявки\n/support — як звʼязатися з підтримкою\n\nЩе я пишу вам, коли змінюється статус вашої заявки.',
  },
  support: {
    text: 'Підтримка відповідає 24/7.\nE-mail: {{email}}\nTelegram: {{telegram}}\nКанал новин: {{channel}}\n\nАбо напишіть нам через форму зворотного звʼязку:',
    form: 'Форма зворотного звʼязку',
  },
  status: {
    changed: 'Заявка №{{number}}: {{status}}.',
    waiting_for_payment: 'Реквізити для оплати готові в заявці.',
    paid: 'Оплату отримано; виплата вже в дорозі.',
    completed: 'Цей переказ успішно завершено.',
    canceled: 'Заявку скасовано.',
    open: 'Відкрити заявку',
  },
  staff: {
    newOrder: 'Нова заявка №{{number}}: {{send}} → {{receive}}\nE-mail: {{email}}',
    newSupport: 'Звернення до підтримки від {{name}} <{{email}}>{{order}}:\n{{message}}',
    supportOrder: ', заявка {{order}}',
    openConsole: 'Відкрити в консолі',
    markHandled: 'Позначити обробленим',
    handled: 'Оброблено: {{who}}.',
    handledAlready: 'Вже оброблено.',
    notStaff: 'Це можуть лише співробітники, чий Telegram привʼязано до їхнього акаунта.',
    notFound: 'Цього звернення більше немає.',
  },
  fallback: 'Надішліть /start, щоб відкрити обмін, або /help, щоб дізнатися, що я вмію.',
};
