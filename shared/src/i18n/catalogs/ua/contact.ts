import type { contact as en } from '../en/contact.ts';
import type { Messages } from '../../types.ts';

export const contact: Messages<typeof en> = {
  metaTitle: "Зв'язатися з підтримкою",
  metaDescription:
    'Питання щодо обміну чи сервісу? Напишіть у підтримку, 24/7: через форму, на email або в Telegram.',
  title: "Зв'язатися з нами",
  lead: "Питання щодо обміну чи сервісу? Підтримка працює 24/7. Напишіть нам через форму або зв'яжіться напряму.",
  form: {
    title: 'Написати в підтримку',
    name: "Ім'я",
    email: 'Email',
    emailHint: 'Ми відповімо на цю адресу.',
    orderId: 'ID заявки',
    orderIdHint: "Необов'язково: номер або ID обміну, якого стосується ваше питання.",
    message: 'Повідомлення',
    submit: 'Надіслати',
    errors: {
      tooLong: 'Задовгий текст',
    },
  },
  sent: {
    title: 'Ваше звернення надіслано',
    text: 'Дякуємо! Ми відповімо на {{email}} якнайшвидше.',
    notification: 'Ваше звернення надіслано. Ми відповімо на email.',
    again: 'Надіслати ще одне звернення',
  },
  routes: {
    title: "Інші способи зв'язку",
    email: 'Email',
    telegram: 'Telegram',
    telegramHint: 'Чат з підтримкою',
    channel: 'Telegram-канал',
    channelHint: 'Новини та оновлення сервісу',
    newWindow: '(відкриється в новому вікні)',
  },
};
