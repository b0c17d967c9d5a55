import type { contact as en } from '../en/contact.ts';
import type { Messages } from '../../types.ts';

export const contact: Messages<typeof en> = {
  metaTitle: 'Связаться с поддержкой',
  metaDescription:
    'Вопросы об обмене или о сервисе? Напишите в поддержку, 24/7: через форму, по email или в Telegram.',
  title: 'Связаться с нами',
  lead: 'Вопросы об обмене или о сервисе? Поддержка работает 24/7. Напишите нам через форму или свяжитесь напрямую.',
  form: {
    title: 'Написать в поддержку',
    name: 'Имя',
    email: 'Email',
    emailHint: 'Мы ответим на этот адрес.',
    orderId: 'ID заявки',
    orderIdHint: 'Необязательно: номер или ID обмена, о котором ваш вопрос.',
    message: 'Сообщение',
    submit: 'Отправить',
    errors: {
      tooLong: 'Слишком длинный текст',
    },
  },
  sent: {
    title: 'Ваше обращение отправлено',
    text: 'Спасибо! Мы ответим на {{email}} как можно скорее.',
    notification: 'Ваше обращение отправлено. Мы ответим по email.',
    again: 'Отправить ещё одно обращение',
  },
  routes: {
    title: 'Другие способы связи',
    email: 'Email',
    telegram: 'Telegram',
    telegramHint: 'Чат с поддержкой',
    channel: 'Telegram-канал',
    channelHint: 'Новости и обновления сервиса',
    newWindow: '(откроется в новом окне)',
  },
};
