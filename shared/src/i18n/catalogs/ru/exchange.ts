import type { exchange as en } from '../en/exchange.ts';
import type { Messages } from '../../types.ts';

import { trust } from './trust.ts';

export const exchange: Messages<typeof en> = {
  create: {
    metaTitle: 'Обмен {{send}} на {{receive}}',
    metaDescription:
      'Обменяйте {{send}} на {{receive}} по курсу, зафиксированному при создании заявки. Оператор пришлёт реквизиты за 2–10 минут.',
    title: 'Обмен {{send}} на {{receive}}',
    amountLegend: 'Сумма',
    youSend: 'Вы отправляете',
    youGet: 'Вы получаете',
    detailsLegend: 'Ваши данные',
    email: 'E-mail',
    emailHint:
      'Сюда придут обновления заявки и личная ссылка на неё. Реквизиты для оплаты показываются только на странице заявки и никогда не приходят по e-mail.',
    fullName: 'ФИО',
    walletAddress: 'Адрес кошелька (сеть {{network}})',
    walletHint:
      'Выплата в {{currency}} придёт на этот адрес. Проверьте сеть: при ошибке средства будут потеряны.',
    iban: 'IBAN',
    ibanHint: 'Счёт для выплаты, открытый на ваше имя.',
    cashHint: 'Наличные выдаются в нашем пункте выдачи; время и место согласует оператор.',
    reason: 'Цель обмена',
    reasonHint: 'Например: сбережения, оплата товаров, путешествие.',
    agreeTerms: 'Я согласен с <1>условиями и правилами обмена</1>',
    agreeAml: 'Я принимаю <1>политики AML/CTF и KYC</1>',
    submit: 'Создать обмен',
    submitting: 'Создаём…',
    noticesTitle: 'Перед началом',
    notices: {
      operator:
        'Заявка обрабатывается полуавтоматически: оператор присылает реквизиты, обычно за 2–10 минут.',
      rate: 'Курс фиксируется при создании заявки; оплатите в срок, который укажет оператор.',
      aml: 'Средства подозрительного происхождения могут быть заморожены до завершения AML-проверки; мы можем запросить KYC.',
    },
    nextWindow:
      'Это направление работает с 09:00 до 23:00 по Киеву; ваша заявка будет обработана с {{time}}.',
    codeTitle: 'Подтвердите e-mail',
    codeText:
      'С этим e-mail уже есть аккаунт. Введите 6-значный код, который мы отправили на {{email}}.',
    errors: {
      'invalid-wallet-address': 'Неверный адрес кошелька для этой сети',
      'invalid-iban': 'Неверный IBAN',
      'must-agree': 'Необходимо согласие, чтобы продолжить',
      'too-long': 'Слишком длинное значение',
      'not-applicable': 'Поле не относится к этому направлению обмена',
      invalid: 'Недопустимое значение',
    },
    steps: {
      pair: 'Пара обмена',
      creation: 'Создание заявки',
      send: 'Вы отправляете',
      receive: 'Сервис отправляет вам',
      completed: 'Завершено',
    },
    progress: 'Ход обмена',
  },
  transaction: {
    metaTitle: 'Заявка на обмен {{number}}',
    title: 'Заявка на обмен {{number}}',
    notFound: 'Такой заявки нет или она принадлежит другому аккаунту.',
    signInToView: 'Войдите, чтобы увидеть эту заявку.',
    number: 'Номер заявки',
    id: 'ID транзакции',
    send: 'Вы отправляете',
    receive: 'Вы получаете',
    created: 'Создана',
    status: 'Статус',
    statuses: {
      waiting_for_operator: 'Ожидание оператора',
      waiting_for_payment: 'Ожидание оплаты',
      paid: 'Оплачено',
      completed: 'Завершено',
      canceled: 'Отменено',
      // The side states of issue 10 (docs/decisions/015-order-trust.md), one text for both.
      ...trust.statuses,
    },
    waitingForOperator:
      'Оператор готовит реквизиты для оплаты. Это занимает от 2 до 10 минут; страница обновится сама.',
    waitingForPayment: 'Отправьте ровно {{amount}} {{currency}} по реквизитам ниже.',
    depositAddress: 'Адрес для оплаты',
    depositMemo: 'Memo / тег назначения',
    memoWarning: 'Укажите memo, иначе платёж не удастся сопоставить с заявкой.',
    qrCode: 'QR-код адреса для оплаты',
    bank: {
      beneficiary: 'Получатель',
      accountNumber: 'Номер счёта',
      swift: 'SWIFT/BIC',
      bankAddress: 'Адрес банка',
      reference: 'Назначение платежа',
      referenceWarning: 'Укажите назначение платежа точно так, как показано.',
    },
    paid: 'Оплата получена. Сервис отправляет выплату; это может занять некоторое время.',
    completed: 'Этот перевод успешно завершён.',
    payoutTxId: 'Хэш транзакции выплаты',
    canceled: 'Заявка отменена. Вернитесь на главную страницу и создайте новую заявку.',
    canceledReason: 'Причина: {{reason}}',
    backHome: 'Вернуться на главную',
    cancel: 'Отменить обмен',
    cancelConfirm: 'Отменить эту заявку? Это действие нельзя отменить.',
    cancelTitle: 'Отменить заявку {{number}}?',
    cancelKeep: 'Оставить заявку',
    canceledNotice: 'Заявка отменена.',
    copy: 'Копировать',
    copied: 'Скопировано',
    live: 'Обновляется в реальном времени',
    reconnecting: 'Переподключение…',
  },
};
