import type { Messages } from '../../types.ts';
import type { miniapp as source } from '../en/miniapp.ts';

export const miniapp: Messages<typeof source> = {
  title: 'Обмен',
  signingIn: 'Входим…',
  signIn: {
    'invalid-init-data': {
      title: 'Не удалось подтвердить ваш аккаунт Telegram',
      text: 'Данные запуска не прошли проверку. Закройте приложение и откройте его снова из бота.',
    },
    'init-data-expired': {
      title: 'Срок запуска истёк',
      text: 'Закройте приложение и откройте его снова из бота, чтобы войти.',
    },
    'init-data-from-future': {
      title: 'Наши часы отстают от Telegram',
      text: 'Время этого запуска опережает время нашего сервера. Это наша ошибка; попробуйте через минуту.',
    },
    'too-many-requests': {
      title: 'Слишком много входов',
      text: 'Из вашей сети пришло слишком много входов. Попробуйте через {{wait}}.',
    },
    'user-disabled': {
      title: 'Этот аккаунт заблокирован',
      text: 'Напишите в поддержку, если считаете, что это ошибка.',
    },
    'network-error': {
      title: 'Нет соединения',
      text: 'Проверьте подключение к интернету и попробуйте снова.',
    },
    other: {
      title: 'Не удалось войти',
      text: 'Что-то пошло не так на нашей стороне. Попробуйте через минуту.',
    },
    retry: 'Попробовать снова',
    close: 'Закрыть',
  },
  outside: {
    title: 'Откройте приложение в Telegram',
    text: 'Приложение обмена входит через ваш аккаунт Telegram, поэтому открывается из нашего бота. На компьютере пользуйтесь сайтом.',
    website: 'Перейти на сайт',
  },
  exchange: {
    continue: 'Продолжить',
    pick: 'Выберите валюту',
    details: 'Ваши данные',
    emailFromAccount: 'Из вашего аккаунта',
    scanQr: 'Сканировать QR-код кошелька',
    scanTitle: 'Наведите камеру на QR-код «Получить» в вашем кошельке',
    scanNoAddress: 'В этом QR-коде нет адреса кошелька. Отсканируйте код, который кошелёк показывает в разделе «Получить».',
  },
  nav: {
    history: 'История',
    newExchange: 'Новый обмен',
    exchange: 'Обмен',
    historyEmptyHint: 'Выберите пару и сумму на экране обмена — это займёт минуту.',
  },
  transaction: {
    cancelKeep: 'Оставить заявку',
    cancelYes: 'Да, отменить',
  },
  chatNotifications: {
    off: 'Уведомления в чате выключены: бот не может вам писать. Чтобы получать новости о заявке в Telegram, откройте бота и нажмите «Запустить».',
    ok: 'OK',
  },
  trust: {
    choose: 'Что сделать с вашим платежом?',
    refundCashConfirm: 'Запросить возврат {{received}}? Наличные возвращаются в пункте выдачи.',
  },
  /** Settings inside the mini-app (issue 22): the anti-phishing phrase. */
  settings: {
    inviteTitle: 'Пригласите друзей',
    inviteText: 'Обмен криптовалюты и наличных прямо в Telegram.',
    share: 'Поделиться ссылкой',
    title: 'Настройки',
    notSet: 'Ещё не задана',
  },
  /** A completed order's receipt inside the mini-app (issue 22). */
  receipt: {
    downloadStarted: 'Telegram скачивает квитанцию.',
    downloadDeclined: 'Скачивание отменено.',
  },
  loading: 'Загрузка…',
  retry: 'Попробовать снова',
  loadFailed: 'Не удалось загрузить. Проверьте соединение и попробуйте снова.',
};
