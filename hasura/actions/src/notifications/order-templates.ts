import type { Letter } from './render.ts';

/*
 * The order e-mails in the order's locale (transactions.locale: en, ru, ua). Each template
 * gets display-ready strings (amounts with their currency, links) and returns a Letter.
 */

export const LOCALES = ['en', 'ru', 'ua'] as const;
export type Locale = (typeof LOCALES)[number];

/** The order's locale, English when it is missing or unknown. */
export const localeOf = (value: string | null | undefined): Locale =>
  LOCALES.find((locale) => locale === value) ?? 'en';

export interface OrderFacts {
  number: string;
  fullName: string;
  /** E.g. `0.015 BTC`. */
  send: string;
  /** E.g. `1234.5 USDT (TRC20)`. */
  receive: string;
  /** The user's wallet address or IBAN, if any. */
  payoutTo: string | null;
  /** The transaction page, in the order's locale. */
  link: string;
  /** The home page, in the order's locale. */
  home: string;
}

/** What the user pays to: a deposit address (crypto) or one of the service's bank accounts. */
export type Requisites =
  | { kind: 'crypto'; address: string; memo: string | null; network: string | null }
  | {
      kind: 'bank';
      beneficiary: string;
      accountNumber: string;
      swiftBic: string;
      bankAddress: string;
      reference: string;
    };

export interface OrderTemplates {
  cash: string;
  created(o: OrderFacts): Letter;
  waitingForPayment(o: OrderFacts, r: Requisites): Letter;
  paid(o: OrderFacts): Letter;
  completed(o: OrderFacts, payoutTxId: string): Letter;
  canceled(o: OrderFacts, by: 'user' | 'staff', reason: string | null): Letter;
}

interface Words {
  youSend: string;
  youReceive: string;
  payoutTo: string;
  address: string;
  memo: string;
  network: string;
  beneficiary: string;
  accountNumber: string;
  swiftBic: string;
  bankAddress: string;
  reference: string;
  reason: string;
  payoutTx: string;
}

function requisiteFacts(w: Words, r: Requisites): Array<[string, string]> {
  if (r.kind === 'crypto') {
    return [
      [w.address, r.address],
      ...(r.memo ? ([[w.memo, r.memo]] as Array<[string, string]>) : []),
      ...(r.network ? ([[w.network, r.network]] as Array<[string, string]>) : []),
    ];
  }
  return [
    [w.beneficiary, r.beneficiary],
    [w.accountNumber, r.accountNumber],
    [w.swiftBic, r.swiftBic],
    [w.bankAddress, r.bankAddress],
    [w.reference, r.reference],
  ];
}

const orderFacts = (w: Words, o: OrderFacts): Array<[string, string]> => [
  [w.youSend, o.send],
  [w.youReceive, o.receive],
  ...(o.payoutTo ? ([[w.payoutTo, o.payoutTo]] as Array<[string, string]>) : []),
];

const EN_WORDS: Words = {
  youSend: 'You send',
  youReceive: 'You receive',
  payoutTo: 'Payout to',
  address: 'Address',
  memo: 'Memo / tag',
  network: 'Network',
  beneficiary: 'Beneficiary',
  accountNumber: 'Account number',
  swiftBic: 'SWIFT/BIC',
  bankAddress: 'Bank address',
  reference: 'Payment reference',
  reason: 'Reason',
  payoutTx: 'Payout transaction ID',
};

const EN: OrderTemplates = {
  cash: 'cash',
  created: (o) => ({
    subject: `Order #${o.number} created`,
    paragraphs: [`Thank you, ${o.fullName}. Your order #${o.number} is created.`],
    facts: orderFacts(EN_WORDS, o),
    after: [
      'An operator will supply the payment details in 2-10 minutes. We will e-mail them to you, and the order page shows them as soon as they are ready.',
    ],
    action: { label: 'Open the order', href: o.link },
  }),
  waitingForPayment: (o, r) => ({
    subject: `Order #${o.number}: payment details`,
    paragraphs: [
      `The payment details for order #${o.number} are ready. Please send exactly ${o.send} to:`,
    ],
    facts: requisiteFacts(EN_WORDS, r),
    after: [
      ...(r.kind === 'bank'
        ? [`Put the payment reference ${r.reference} in the description of your transfer.`]
        : []),
      `You will receive ${o.receive}. Until you pay, you can cancel the order on its page.`,
    ],
    action: { label: 'Open the order', href: o.link },
  }),
  paid: (o) => ({
    subject: `Order #${o.number}: payment received`,
    paragraphs: [
      `We have received your payment for order #${o.number}. The service is sending you ${o.receive}; this may take some time.`,
    ],
    action: { label: 'Open the order', href: o.link },
  }),
  completed: (o, tx) => ({
    subject: `Order #${o.number} completed`,
    paragraphs: [`Order #${o.number}: this transfer was successfully completed.`],
    facts: [
      ['You received', o.receive],
      [EN_WORDS.payoutTx, tx],
    ],
    action: { label: 'Open the order', href: o.link },
  }),
  canceled: (o, by, reason) => ({
    subject: `Order #${o.number} canceled`,
    paragraphs: [
      by === 'user'
        ? `Order #${o.number} was canceled at your request.`
        : `Order #${o.number} was canceled by the service.`,
    ],
    ...(by === 'staff' && reason ? { facts: [[EN_WORDS.reason, reason]] } : {}),
    after: ['To exchange again, return to the main page and create a new order.'],
    action: { label: 'Main page', href: o.home },
  }),
};

const RU_WORDS: Words = {
  youSend: 'Вы отправляете',
  youReceive: 'Вы получаете',
  payoutTo: 'Выплата на',
  address: 'Адрес',
  memo: 'Memo / тег',
  network: 'Сеть',
  beneficiary: 'Получатель',
  accountNumber: 'Номер счёта',
  swiftBic: 'SWIFT/BIC',
  bankAddress: 'Адрес банка',
  reference: 'Назначение платежа',
  reason: 'Причина',
  payoutTx: 'ID транзакции выплаты',
};

const RU: OrderTemplates = {
  cash: 'наличные',
  created: (o) => ({
    subject: `Заявка №${o.number} создана`,
    paragraphs: [`Спасибо, ${o.fullName}. Ваша заявка №${o.number} создана.`],
    facts: orderFacts(RU_WORDS, o),
    after: [
      'Оператор предоставит реквизиты для оплаты в течение 2–10 минут. Мы пришлём их письмом, а страница заявки покажет их, как только они будут готовы.',
    ],
    action: { label: 'Открыть заявку', href: o.link },
  }),
  waitingForPayment: (o, r) => ({
    subject: `Заявка №${o.number}: реквизиты для оплаты`,
    paragraphs: [
      `Реквизиты для оплаты заявки №${o.number} готовы. Отправьте ровно ${o.send} по реквизитам:`,
    ],
    facts: requisiteFacts(RU_WORDS, r),
    after: [
      ...(r.kind === 'bank'
        ? [`Обязательно укажите назначение платежа ${r.reference} в описании перевода.`]
        : []),
      `Вы получите ${o.receive}. Пока вы не оплатили, заявку можно отменить на её странице.`,
    ],
    action: { label: 'Открыть заявку', href: o.link },
  }),
  paid: (o) => ({
    subject: `Заявка №${o.number}: оплата получена`,
    paragraphs: [
      `Мы получили вашу оплату по заявке №${o.number}. Сервис отправляет вам ${o.receive}; это может занять некоторое время.`,
    ],
    action: { label: 'Открыть заявку', href: o.link },
  }),
  completed: (o, tx) => ({
    subject: `Заявка №${o.number} выполнена`,
    paragraphs: [`Заявка №${o.number}: перевод успешно выполнен.`],
    facts: [
      ['Вы получили', o.receive],
      [RU_WORDS.payoutTx, tx],
    ],
    action: { label: 'Открыть заявку', href: o.link },
  }),
  canceled: (o, by, reason) => ({
    subject: `Заявка №${o.number} отменена`,
    paragraphs: [
      by === 'user'
        ? `Заявка №${o.number} отменена по вашему запросу.`
        : `Заявка №${o.number} отменена сервисом.`,
    ],
    ...(by === 'staff' && reason ? { facts: [[RU_WORDS.reason, reason]] } : {}),
    after: ['Чтобы обменять снова, вернитесь на главную страницу и создайте новую заявку.'],
    action: { label: 'На главную', href: o.home },
  }),
};

const UA_WORDS: Words = {
  youSend: 'Ви надсилаєте',
  youReceive: 'Ви отримуєте',
  payoutTo: 'Виплата на',
  address: 'Адреса',
  memo: 'Memo / тег',
  network: 'Мережа',
  beneficiary: 'Отримувач',
  accountNumber: 'Номер рахунку',
  swiftBic: 'SWIFT/BIC',
  bankAddress: 'Адреса банку',
  reference: 'Призначення платежу',
  reason: 'Причина',
  payoutTx: 'ID транзакції виплати',
};

const UA: OrderTemplates = {
  cash: 'готівка',
  created: (o) => ({
    subject: `Заявку №${o.number} створено`,
    paragraphs: [`Дякуємо, ${o.fullName}. Вашу заявку №${o.number} створено.`],
    facts: orderFacts(UA_WORDS, o),
    after: [
      'Оператор надасть реквізити для оплати протягом 2–10 хвилин. Ми надішлемо їх листом, а сторінка заявки покаже їх, щойно вони будуть готові.',
    ],
    action: { label: 'Відкрити заявку', href: o.link },
  }),
  waitingForPayment: (o, r) => ({
    subject: `Заявка №${o.number}: реквізити для оплати`,
    paragraphs: [
      `Реквізити для оплати заявки №${o.number} готові. Надішліть рівно ${o.send} за реквізитами:`,
    ],
    facts: requisiteFacts(UA_WORDS, r),
    after: [
      ...(r.kind === 'bank'
        ? [`Обов'язково вкажіть призначення платежу ${r.reference} в описі переказу.`]
        : []),
      `Ви отримаєте ${o.receive}. Поки ви не оплатили, заявку можна скасувати на її сторінці.`,
    ],
    action: { label: 'Відкрити заявку', href: o.link },
  }),
  paid: (o) => ({
    subject: `Заявка №${o.number}: оплату отримано`,
    paragraphs: [
      `Ми отримали вашу оплату за заявкою №${o.number}. Сервіс надсилає вам ${o.receive}; це може зайняти деякий час.`,
    ],
    action: { label: 'Відкрити заявку', href: o.link },
  }),
  completed: (o, tx) => ({
    subject: `Заявку №${o.number} виконано`,
    paragraphs: [`Заявка №${o.number}: переказ успішно виконано.`],
    facts: [
      ['Ви отримали', o.receive],
      [UA_WORDS.payoutTx, tx],
    ],
    action: { label: 'Відкрити заявку', href: o.link },
  }),
  canceled: (o, by, reason) => ({
    subject: `Заявку №${o.number} скасовано`,
    paragraphs: [
      by === 'user'
        ? `Заявку №${o.number} скасовано на ваш запит.`
        : `Заявку №${o.number} скасовано сервісом.`,
    ],
    ...(by === 'staff' && reason ? { facts: [[UA_WORDS.reason, reason]] } : {}),
    after: ['Щоб обміняти знову, поверніться на головну сторінку та створіть нову заявку.'],
    action: { label: 'На головну', href: o.home },
  }),
};

export const ORDER_TEMPLATES: Record<Locale, OrderTemplates> = { en: EN, ru: RU, ua: UA };
