import type { links as en } from '../en/links.ts';
import type { Messages } from '../../types.ts';

export const links: Messages<typeof en> = {
  telegram: {
    title: 'Telegram',
    intro:
      'Привяжите Telegram, чтобы получать уведомления о заявках в чате с нашим ботом и видеть заявки в приложении Telegram.',
    link: 'Привязать Telegram',
    open: 'Открыть бота',
    pending_one:
      'Откройте ссылку в Telegram и нажмите «Старт». Она работает один раз, {{count}} минуту.',
    pending_few:
      'Откройте ссылку в Telegram и нажмите «Старт». Она работает один раз, {{count}} минуты.',
    pending_many:
      'Откройте ссылку в Telegram и нажмите «Старт». Она работает один раз, {{count}} минут.',
    pending_other:
      'Откройте ссылку в Telegram и нажмите «Старт». Она работает один раз, {{count}} минуты.',
    check: 'Проверить',
    notYet: 'Пока не привязан: откройте ссылку в Telegram и нажмите «Старт».',
    linked: 'Telegram привязан',
    linkedAs: 'Telegram привязан: @{{username}}',
    unlink: 'Отвязать',
    unlinked: 'Telegram отвязан',
    needsEmail: 'Подтвердите email выше, чтобы привязать Telegram.',
  },
  email: {
    title: 'Email',
    intro: 'Добавьте email, чтобы входить и на сайте: там будут те же заявки.',
    label: 'Email',
    send: 'Отправить код',
    codeLabel: 'Код из письма',
    codeHint: 'Мы отправили 6-значный код на {{email}}. Он действует 10 минут.',
    confirm: 'Подтвердить',
    change: 'Указать другой адрес',
    current: 'Ваш email',
    added:
      'Адрес подтверждён. На сайте входите с ним по коду или задайте пароль через «Забыли пароль».',
  },
};
