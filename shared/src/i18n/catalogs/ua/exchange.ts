import type { exchange as en } from '../en/exchange.ts';
import type { Messages } from '../../types.ts';

import { trust } from './trust.ts';

export const exchange: Messages<typeof en> = {
  create: {
    metaTitle: 'Обмін {{send}} на {{receive}}',
    metaDescription:
      'Обміняйте {{send}} на {{receive}} за курсом, зафіксованим під час створення заявки. Оператор надішле реквізити за 2–10 хвилин.',
    title: 'Обмін {{send}} на {{receive}}',
    amountLegend: 'Сума',
    youSend: 'Ви надсилаєте',
    youGet: 'Ви отримуєте',
    detailsLegend: 'Ваші дані',
    email: 'E-mail',
    emailHint:
      'Сюди надходитимуть оновлення заявки та особисте посилання на неї. Реквізити для оплати показуються лише на сторінці заявки й ніколи не надсилаються e-mail.',
    fullName: "Прізвище, ім'я, по батькові",
    walletAddress: 'Адреса гаманця (мережа {{network}})',
    walletHint:
      'Виплата в {{currency}} надійде на цю адресу. Перевірте мережу: у разі помилки кошти буде втрачено.',
    iban: 'IBAN',
    ibanHint: "Рахунок для виплати, відкритий на ваше ім'я.",
    cashHint: 'Готівку видають у нашому пункті видачі; час і місце узгоджує оператор.',
    reason: 'Мета обміну',
    reasonHint: 'Наприклад: заощадження, оплата товарів, подорож.',
    agreeTerms: 'Я погоджуюся з <1>умовами та правилами обміну</1>',
    agreeAml: 'Я приймаю <1>політики AML/CTF і KYC</1>',
    submit: 'Створити обмін',
    submitting: 'Створюємо…',
    noticesTitle: 'Перед початком',
    notices: {
      operator:
        'Заявка обробляється напівавтоматично: оператор надсилає реквізити, зазвичай за 2–10 хвилин.',
      rate: 'Курс фіксується під час створення заявки; оплатіть у строк, який вкаже оператор.',
      aml: 'Кошти підозрілого походження можуть бути заморожені до завершення AML-перевірки; ми можемо запросити KYC.',
    },
    nextWindow:
      'Цей напрямок працює з 09:00 до 23:00 за Києвом; вашу заявку буде оброблено з {{time}}.',
    codeTitle: 'Підтвердьте e-mail',
    codeText: 'З цим e-mail уже є акаунт. Введіть 6-значний код, який ми надіслали на {{email}}.',
    errors: {
      'invalid-wallet-address': 'Неправильна адреса гаманця для цієї мережі',
      'invalid-iban': 'Неправильний IBAN',
      'must-agree': 'Потрібна ваша згода, щоб продовжити',
      'too-long': 'Занадто довге значення',
      'not-applicable': 'Поле не стосується цього напрямку обміну',
      invalid: 'Неприпустиме значення',
    },
    steps: {
      pair: 'Пара обміну',
      creation: 'Створення заявки',
      send: 'Ви надсилаєте',
      receive: 'Сервіс надсилає вам',
      completed: 'Завершено',
    },
    progress: 'Хід обміну',
  },
  transaction: {
    metaTitle: 'Заявка на обмін {{number}}',
    title: 'Заявка на обмін {{number}}',
    notFound: 'Такої заявки немає або вона належить іншому акаунту.',
    signInToView: 'Увійдіть, щоб побачити цю заявку.',
    number: 'Номер заявки',
    id: 'ID транзакції',
    send: 'Ви надсилаєте',
    receive: 'Ви отримуєте',
    created: 'Створена',
    status: 'Статус',
    statuses: {
      waiting_for_operator: 'Очікування оператора',
      waiting_for_payment: 'Очікування оплати',
      paid: 'Оплачено',
      completed: 'Завершено',
      canceled: 'Скасовано',
      // The side states of issue 10 (docs/decisions/015-order-trust.md), one text for both.
      ...trust.statuses,
    },
    waitingForOperator:
      'Оператор готує реквізити для оплати. Це займає від 2 до 10 хвилин; сторінка оновиться сама.',
    waitingForPayment: 'Надішліть рівно {{amount}} {{currency}} за реквізитами нижче.',
    depositAddress: 'Адреса для оплати',
    depositMemo: 'Memo / тег призначення',
    memoWarning: 'Вкажіть memo, інакше платіж не вдасться зіставити із заявкою.',
    qrCode: 'QR-код адреси для оплати',
    bank: {
      beneficiary: 'Отримувач',
      accountNumber: 'Номер рахунку',
      swift: 'SWIFT/BIC',
      bankAddress: 'Адреса банку',
      reference: 'Призначення платежу',
      referenceWarning: 'Вкажіть призначення платежу точно так, як показано.',
    },
    paid: 'Оплату отримано. Сервіс надсилає виплату; це може зайняти деякий час.',
    completed: 'Цей переказ успішно завершено.',
    payoutTxId: 'Хеш транзакції виплати',
    canceled: 'Заявку скасовано. Поверніться на головну сторінку та створіть нову заявку.',
    canceledReason: 'Причина: {{reason}}',
    backHome: 'Повернутися на головну',
    cancel: 'Скасувати обмін',
    cancelConfirm: 'Скасувати цю заявку? Цю дію не можна скасувати.',
    canceledNotice: 'Заявку скасовано.',
    copy: 'Копіювати',
    copied: 'Скопійовано',
    live: 'Оновлюється в реальному часі',
    reconnecting: 'Повторне підключення…',
  },
};
