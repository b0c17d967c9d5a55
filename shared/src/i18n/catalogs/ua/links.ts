import type { links as en } from '../en/links.ts';
import type { Messages } from '../../types.ts';

export const links: Messages<typeof en> = {
  telegram: {
    title: 'Telegram',
    intro:
      'Прив’яжіть Telegram, щоб отримувати сповіщення про заявки в чаті з нашим ботом і бачити заявки в застосунку Telegram.',
    link: 'Прив’язати Telegram',
    open: 'Відкрити бота',
    pending_one:
      'Відкрийте посилання в Telegram і натисніть «Старт». Воно працює один раз, {{count}} хвилину.',
    pending_few:
      'Відкрийте посилання в Telegram і натисніть «Старт». Воно працює один раз, {{count}} хвилини.',
    pending_many:
      'Відкрийте посилання в Telegram і натисніть «Старт». Воно працює один раз, {{count}} хвилин.',
    pending_other:
      'Відкрийте посилання в Telegram і натисніть «Старт». Воно працює один раз, {{count}} хвилини.',
    check: 'Перевірити',
    notYet: 'Ще не прив’язано: відкрийте посилання в Telegram і натисніть «Старт».',
    linked: 'Telegram прив’язано',
    linkedAs: 'Telegram прив’язано: @{{username}}',
    unlink: 'Відв’язати',
    unlinked: 'Telegram відв’язано',
    needsEmail: 'Підтвердьте email вище, щоб прив’язати Telegram.',
  },
  email: {
    title: 'Email',
    intro: 'Додайте email, щоб входити й на сайті: там будуть ті самі заявки.',
    label: 'Email',
    send: 'Надіслати код',
    codeLabel: 'Код із листа',
    codeHint: 'Ми надіслали 6-значний код на {{email}}. Він діє 10 хвилин.',
    confirm: 'Підтвердити',
    change: 'Вказати іншу адресу',
    current: 'Ваш email',
    added:
      'Адресу підтверджено. На сайті входьте з нею за кодом або задайте пароль через «Забули пароль».',
  },
};
