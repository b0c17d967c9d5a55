import type { Messages } from '../../types.ts';
import type { bot as source } from '../en/bot.ts';

export const bot: Messages<typeof source> = {
  start: {
    greeting:
      'Здравствуйте, {{name}}! Обменивайте криптовалюту и наличные, покупайте криптовалюту и оплачивайте товары и услуги криптовалютой — прямо в Telegram.\n\nОткройте обмен, выберите пару и сумму; оператор пришлёт реквизиты за 2–10 минут.',
    open: 'Открыть обмен',
    openPair: 'Обменять {{from}} на {{to}}',
  },
  menu: 'Обмен',
  commands: {
    start: 'Открыть обмен',
    history: 'Ваши последние заявки',
    help: 'Что умеет этот бот',
    support: 'Как связаться с поддержкой',
  },
  history: {
    title: 'Ваши последние заявки:',
    row: '№{{number}} · {{send}} → {{receive}} · {{status}}',
    empty: 'У вас пока нет заявок. Откройте обмен, чтобы создать заявку.',
    noAccount: 'У вас пока нет заявок: откройте обмен один раз, чтобы войти через Telegram.',
    open: '№{{number}}',
  },
  help: {
    text: 'Что я умею:\n/start — открыть обмен\n/history — ваши последние заявки\n/support — как связаться с поддержкой\n\nЕщё я пишу вам, когда меняется статус вашей заявки.',
  },
  support: {
    text: 'Поддержка отвечает 24/7.\nE-mail: {{email}}\nTelegram: {{telegram}}\nКанал новостей: {{channel}}\n\nИли напишите нам через форму обратной связи:',
    form: 'Форма обратной связи',
  },
  status: {
    changed: 'Заявка №{{number}}: {{status}}.',
    waiting_for_payment: 'Реквизиты для оплаты готовы в заявке.',
    paid: 'Оплата получена; выплата уже в пути.',
    completed: 'Этот перевод успешно завершён.',
    canceled: 'Заявка отменена.',
    open: 'Открыть заявку',
  },
  staff: {
    newOrder: 'Новая заявка №{{number}}: {{send}} → {{receive}}\nE-mail: {{email}}',
    newSupport: 'Обращение в поддержку от {{name}} <{{email}}>{{order}}:\n{{message}}',
    supportOrder: ', заявка {{order}}',
    openConsole: 'Открыть в консоли',
    markHandled: 'Отметить обработанным',
    handled: 'Обработано: {{who}}.',
    handledAlready: 'Уже обработано.',
    notStaff: 'Это могут только сотрудники, чей Telegram привязан к их аккаунту.',
    notFound: 'Этого обращения больше нет.',
  },
  fallback: 'Отправьте /start, чтобы открыть обмен, или /help, чтобы узнать, что я умею.',
};
