import type { ActionReason, HoldCategory } from './payload.ts';
import type { Letter } from './render.ts';

/*
 * The order e-mails in the order's locale (transactions.locale: en, ru, ua). Each template
 * gets display-ready strings (amounts with their currency, times, links) and returns a Letter.
 *
 * No letter carries payment details (a deposit address, a memo, a bank account, a payment
 * reference): those appear only on the signed-in order page, next to the user's
 * anti-phishing phrase (docs/decisions/015-order-trust.md). The letters say what changed and
 * link back. The user's own payout and refund addresses are theirs, not requisites.
 */

export const LOCALES = ['en', 'ru', 'ua'] as const;
export type Locale = (typeof LOCALES)[number];

/** The order's locale, English when it is missing or unknown. */
export const localeOf = (value: string | null | undefined): Locale =>
  LOCALES.find((locale) => locale === value) ?? 'en';

export interface OrderFacts {
  number: string;
  /** E.g. `0.015 BTC`. */
  send: string;
  /** E.g. `1234.5 USDT (TRC20)`: the receive amount the order is locked at. */
  receive: string;
  /** The user's wallet address or IBAN, if any. */
  payoutTo: string | null;
  /** The memo or destination tag of the user's payout address, if any. */
  payoutMemo: string | null;
  /** The transaction page, in the order's locale (signed in). */
  link: string;
  /** The home page, in the order's locale. */
  home: string;
  /** The support contact page, in the order's locale. */
  contact: string;
}

/** What the order-created letter adds. */
export interface CreatedDetails {
  /** When the operator promises the payment details (`2026-01-05 14:30 UTC`), if known. */
  requisitesDue: string | null;
  /** The order's secret read-only link (orders/link-token.ts). */
  secretLink: string;
}

/** What the waiting-for-payment letter adds (never the payment details themselves). */
export interface PaymentDetails {
  /** When the payment must arrive (`2026-01-05 14:30 UTC`), if known. */
  payBy: string | null;
  /** The receive amount first quoted, when the order was re-quoted in the user's favour. */
  quotedReceive: string | null;
}

/** A payment that needed the user's choice, continued at the current rate. */
export interface Settlement {
  /** What arrived, e.g. `0.014 BTC`. */
  received: string;
  /** What the user receives now, e.g. `1290.1 USDT (TRC20)`. */
  receive: string;
}

export interface Refund {
  amount: string;
  /** The user's refund address or IBAN; null for cash (or not known). */
  to: string | null;
  memo: string | null;
  cash: boolean;
}

export interface OrderTemplates {
  cash: string;
  created(o: OrderFacts, d: CreatedDetails): Letter;
  waitingForPayment(o: OrderFacts, d: PaymentDetails): Letter;
  paid(o: OrderFacts, settled: Settlement | null): Letter;
  completed(o: OrderFacts, payoutTxId: string): Letter;
  canceled(o: OrderFacts, by: 'user' | 'staff', reason: string | null): Letter;
  onHold(o: OrderFacts, category: HoldCategory | null): Letter;
  /** `received` is what arrived (with its currency), when staff recorded it. */
  needsUserAction(o: OrderFacts, reason: ActionReason | null, received: string | null): Letter;
  refundInProgress(o: OrderFacts, r: Refund): Letter;
  refunded(o: OrderFacts, r: { amount: string; txId: string }): Letter;
  expired(o: OrderFacts, payBy: string | null): Letter;
}

interface Words {
  youSend: string;
  youReceive: string;
  payoutTo: string;
  payoutMemo: string;
  requisitesBy: string;
  payBy: string;
  reason: string;
  payoutTx: string;
  expected: string;
  received: string;
  refundAmount: string;
  refundTo: string;
  refundMemo: string;
  refundTx: string;
  open: string;
}

type Facts = Array<[string, string]>;

const when = (condition: unknown, facts: Facts): Facts => (condition ? facts : []);

const orderFacts = (w: Words, o: OrderFacts): Facts => [
  [w.youSend, o.send],
  [w.youReceive, o.receive],
  ...when(o.payoutTo, [[w.payoutTo, o.payoutTo ?? '']]),
  ...when(o.payoutMemo, [[w.payoutMemo, o.payoutMemo ?? '']]),
];

const refundFacts = (w: Words, r: Refund): Facts => [
  [w.refundAmount, r.amount],
  ...when(r.to, [[w.refundTo, r.to ?? '']]),
  ...when(r.to && r.memo, [[w.refundMemo, r.memo ?? '']]),
];

/** The side-state texts of a locale (wording shared with the order page's trust texts). */
interface SideTexts {
  holdCategories: Record<HoldCategory, string>;
  holdWhatToDo: Record<HoldCategory, string>;
}

const EN_WORDS: Words = {
  youSend: 'You send',
  youReceive: 'You receive',
  payoutTo: 'Payout to',
  payoutMemo: 'Payout memo / tag',
  requisitesBy: 'Payment details by',
  payBy: 'Payment must arrive by',
  reason: 'Reason',
  payoutTx: 'Payout transaction ID',
  expected: 'Expected',
  received: 'Received',
  refundAmount: 'Refund',
  refundTo: 'Refund to',
  refundMemo: 'Memo / tag',
  refundTx: 'Refund transaction ID',
  open: 'Open the order',
};

const EN_SIDE: SideTexts = {
  holdCategories: {
    aml_review: 'Routine AML review of the incoming transfer.',
    source_of_funds: 'We need to confirm where the funds come from.',
    sanctions_screening: 'The sending address or bank is being screened against sanctions lists.',
    identity_verification: 'We need to confirm the identity of the payer.',
  },
  holdWhatToDo: {
    aml_review: 'Nothing for now: most reviews finish within a few hours. We will e-mail you.',
    source_of_funds:
      'Reply to our e-mail, or write to support, with a document showing where the funds come from (exchange statement, invoice, payslip).',
    sanctions_screening:
      'Nothing for now. If we need more, we will e-mail you; you may also write to support.',
    identity_verification:
      'Reply to our e-mail, or write to support, with an identity document of the payer.',
  },
};

const EN: OrderTemplates = {
  cash: 'cash',
  created: (o, d) => ({
    subject: `Order #${o.number} created`,
    paragraphs: [`Thank you. Your order #${o.number} is created.`],
    facts: [
      ...orderFacts(EN_WORDS, o),
      ...when(d.requisitesDue, [[EN_WORDS.requisitesBy, d.requisitesDue ?? '']]),
    ],
    after: [
      d.requisitesDue
        ? `An operator will prepare the payment details by ${d.requisitesDue} (usually within 2-10 minutes). We will e-mail you as soon as they are ready; you will see them on the order page when signed in.`
        : 'An operator will prepare the payment details in 2-10 minutes. We will e-mail you as soon as they are ready; you will see them on the order page when signed in.',
    ],
    links: [
      {
        intro:
          'You can also follow this order without signing in, with its secret link. Anyone who has this link can follow the order (read-only), so keep it private and do not forward this e-mail.',
        label: 'Follow the order',
        href: d.secretLink,
      },
    ],
    action: { label: EN_WORDS.open, href: o.link },
  }),
  waitingForPayment: (o, d) => ({
    subject: `Order #${o.number}: payment details are ready`,
    paragraphs: [
      `The payment details for order #${o.number} are ready on the order page. Sign in and open the order to see them: they are shown next to your anti-phishing phrase. If the phrase is missing or different, the page is not ours: do not pay.`,
    ],
    facts: [...orderFacts(EN_WORDS, o), ...when(d.payBy, [[EN_WORDS.payBy, d.payBy ?? '']])],
    after: [
      ...(d.quotedReceive
        ? [
            `The operator was late, so we re-quoted your order at the better rate: you get ${o.receive} instead of ${d.quotedReceive}.`,
          ]
        : []),
      d.payBy
        ? `Please send exactly ${o.send}; the payment must arrive by ${d.payBy}. Until you pay, you can cancel the order on its page.`
        : `Please send exactly ${o.send}. Until you pay, you can cancel the order on its page.`,
      'We never send payment details by e-mail or in Telegram: a message that gives you an address or an account to pay to is not from us.',
    ],
    action: { label: EN_WORDS.open, href: o.link },
  }),
  paid: (o, settled) => ({
    subject: `Order #${o.number}: payment received`,
    paragraphs: [
      settled
        ? `We have received your payment for order #${o.number}. As you chose, the ${settled.received} that arrived was exchanged at the current rate: the service is sending you ${settled.receive}; this may take some time.`
        : `We have received your payment for order #${o.number}. The service is sending you ${o.receive}; this may take some time.`,
    ],
    action: { label: EN_WORDS.open, href: o.link },
  }),
  completed: (o, tx) => ({
    subject: `Order #${o.number} completed`,
    paragraphs: [`Order #${o.number}: this transfer was successfully completed.`],
    facts: [
      ['You received', o.receive],
      [EN_WORDS.payoutTx, tx],
    ],
    action: { label: EN_WORDS.open, href: o.link },
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
  onHold: (o, category) => ({
    subject: `Order #${o.number}: payment on hold`,
    paragraphs: [
      `Your payment for order #${o.number} is on hold. Our compliance team is reviewing the incoming funds, as the AML policy requires. Your money is safe and nothing is lost while we look.`,
    ],
    ...(category ? { facts: [[EN_WORDS.reason, EN_SIDE.holdCategories[category]]] } : {}),
    after: category ? [`What you can do: ${EN_SIDE.holdWhatToDo[category]}`] : [],
    links: [{ label: 'Write to support', href: o.contact }],
    action: { label: EN_WORDS.open, href: o.link },
  }),
  needsUserAction: (o, reason, received) => ({
    subject: `Order #${o.number}: we need your decision`,
    paragraphs: [
      reason === 'refund_required'
        ? `After the review we cannot accept the funds of order #${o.number}; they will be returned to you.`
        : reason === 'late_payment' && received
          ? `Your payment of ${received} for order #${o.number} arrived after the payment window closed.`
          : (reason === 'underpaid' || reason === 'overpaid') && received
            ? `We received ${received} for order #${o.number} instead of ${o.send}.`
            : `Order #${o.number} needs your decision about the payment that arrived.`,
    ],
    ...(received
      ? {
          facts: [
            [EN_WORDS.expected, o.send],
            [EN_WORDS.received, received],
          ] as Facts,
        }
      : {}),
    after: [
      reason === 'refund_required'
        ? 'Open the order and tell us where to return them: an address on the network you paid from, or an IBAN when you paid by bank.'
        : 'Open the order and choose: continue at the current rate with the amount that arrived, or get a refund. Nothing happens until you choose; a late or different payment is never lost.',
    ],
    action: { label: 'Choose on the order page', href: o.link },
  }),
  refundInProgress: (o, r) => ({
    subject: `Order #${o.number}: refund in progress`,
    paragraphs: [
      r.cash
        ? `Your cash for order #${o.number} is waiting at the cash point; the operator will tell you when to collect it.`
        : r.to
          ? `We are sending ${r.amount} back to ${r.to} (order #${o.number}).`
          : `We are sending ${r.amount} back to you (order #${o.number}).`,
    ],
    facts: refundFacts(EN_WORDS, r),
    after: ['We will e-mail you when the refund is sent.'],
    action: { label: EN_WORDS.open, href: o.link },
  }),
  refunded: (o, r) => ({
    subject: `Order #${o.number} refunded`,
    paragraphs: [`The refund for order #${o.number} was sent.`],
    facts: [
      [EN_WORDS.refundAmount, r.amount],
      [EN_WORDS.refundTx, r.txId],
    ],
    action: { label: EN_WORDS.open, href: o.link },
  }),
  expired: (o, payBy) => ({
    subject: `Order #${o.number} expired`,
    paragraphs: [
      payBy
        ? `No payment for order #${o.number} arrived by ${payBy}, so the order expired.`
        : `No payment for order #${o.number} arrived in time, so the order expired.`,
    ],
    after: [
      'If you already sent it, contact support with the order number: a late payment is never lost, you will be asked to continue at the current rate or take a refund.',
      'To exchange again, create a new order on the main page.',
    ],
    links: [{ label: 'Contact support', href: o.contact }],
    action: { label: EN_WORDS.open, href: o.link },
  }),
};

const RU_WORDS: Words = {
  youSend: 'Вы отправляете',
  youReceive: 'Вы получаете',
  payoutTo: 'Выплата на',
  payoutMemo: 'Memo / тег выплаты',
  requisitesBy: 'Реквизиты до',
  payBy: 'Оплата должна поступить до',
  reason: 'Причина',
  payoutTx: 'ID транзакции выплаты',
  expected: 'Ожидалось',
  received: 'Получено',
  refundAmount: 'Возврат',
  refundTo: 'Возврат на',
  refundMemo: 'Memo / тег',
  refundTx: 'ID транзакции возврата',
  open: 'Открыть заявку',
};

const RU_SIDE: SideTexts = {
  holdCategories: {
    aml_review: 'Плановая AML-проверка входящего перевода.',
    source_of_funds: 'Нужно подтвердить происхождение средств.',
    sanctions_screening: 'Адрес или банк отправителя проверяется по санкционным спискам.',
    identity_verification: 'Нужно подтвердить личность плательщика.',
  },
  holdWhatToDo: {
    aml_review: 'Пока ничего: большинство проверок завершается за несколько часов. Мы напишем вам.',
    source_of_funds:
      'Ответьте на наше письмо или напишите в поддержку, приложив документ о происхождении средств (выписку с биржи, счёт, расчётный лист).',
    sanctions_screening:
      'Пока ничего. Если понадобится больше, мы напишем; вы также можете обратиться в поддержку.',
    identity_verification:
      'Ответьте на наше письмо или напишите в поддержку, приложив документ, удостоверяющий личность плательщика.',
  },
};

const RU: OrderTemplates = {
  cash: 'наличные',
  created: (o, d) => ({
    subject: `Заявка №${o.number} создана`,
    paragraphs: [`Спасибо! Ваша заявка №${o.number} создана.`],
    facts: [
      ...orderFacts(RU_WORDS, o),
      ...when(d.requisitesDue, [[RU_WORDS.requisitesBy, d.requisitesDue ?? '']]),
    ],
    after: [
      d.requisitesDue
        ? `Оператор подготовит реквизиты для оплаты до ${d.requisitesDue} (обычно в течение 2–10 минут). Мы сообщим письмом, как только они будут готовы; сами реквизиты вы увидите на странице заявки, войдя в аккаунт.`
        : 'Оператор подготовит реквизиты для оплаты в течение 2–10 минут. Мы сообщим письмом, как только они будут готовы; сами реквизиты вы увидите на странице заявки, войдя в аккаунт.',
    ],
    links: [
      {
        intro:
          'Следить за заявкой можно и без входа в аккаунт, по её секретной ссылке. Любой, у кого есть эта ссылка, может следить за заявкой (только просмотр), поэтому не передавайте её и не пересылайте это письмо.',
        label: 'Следить за заявкой',
        href: d.secretLink,
      },
    ],
    action: { label: RU_WORDS.open, href: o.link },
  }),
  waitingForPayment: (o, d) => ({
    subject: `Заявка №${o.number}: реквизиты для оплаты готовы`,
    paragraphs: [
      `Реквизиты для оплаты заявки №${o.number} готовы на странице заявки. Войдите в аккаунт и откройте заявку: реквизиты показаны рядом с вашей антифишинговой фразой. Если фразы нет или она другая, это не наша страница: не платите.`,
    ],
    facts: [...orderFacts(RU_WORDS, o), ...when(d.payBy, [[RU_WORDS.payBy, d.payBy ?? '']])],
    after: [
      ...(d.quotedReceive
        ? [
            `Оператор задержался, поэтому мы пересчитали заявку по лучшему курсу: вы получите ${o.receive} вместо ${d.quotedReceive}.`,
          ]
        : []),
      d.payBy
        ? `Отправьте ровно ${o.send}; оплата должна поступить до ${d.payBy}. Пока вы не оплатили, заявку можно отменить на её странице.`
        : `Отправьте ровно ${o.send}. Пока вы не оплатили, заявку можно отменить на её странице.`,
      'Мы никогда не присылаем реквизиты по e-mail или в Telegram: сообщение с адресом или счётом для оплаты отправили не мы.',
    ],
    action: { label: RU_WORDS.open, href: o.link },
  }),
  paid: (o, settled) => ({
    subject: `Заявка №${o.number}: оплата получена`,
    paragraphs: [
      settled
        ? `Мы получили вашу оплату по заявке №${o.number}. Как вы выбрали, поступившие ${settled.received} обменяны по текущему курсу: сервис отправляет вам ${settled.receive}; это может занять некоторое время.`
        : `Мы получили вашу оплату по заявке №${o.number}. Сервис отправляет вам ${o.receive}; это может занять некоторое время.`,
    ],
    action: { label: RU_WORDS.open, href: o.link },
  }),
  completed: (o, tx) => ({
    subject: `Заявка №${o.number} выполнена`,
    paragraphs: [`Заявка №${o.number}: перевод успешно выполнен.`],
    facts: [
      ['Вы получили', o.receive],
      [RU_WORDS.payoutTx, tx],
    ],
    action: { label: RU_WORDS.open, href: o.link },
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
  onHold: (o, category) => ({
    subject: `Заявка №${o.number}: платёж приостановлен`,
    paragraphs: [
      `Ваш платёж по заявке №${o.number} приостановлен. Служба комплаенса проверяет поступившие средства, как требует AML-политика. Ваши деньги в безопасности, на время проверки ничего не теряется.`,
    ],
    ...(category ? { facts: [[RU_WORDS.reason, RU_SIDE.holdCategories[category]]] } : {}),
    after: category ? [`Что вы можете сделать: ${RU_SIDE.holdWhatToDo[category]}`] : [],
    links: [{ label: 'Написать в поддержку', href: o.contact }],
    action: { label: RU_WORDS.open, href: o.link },
  }),
  needsUserAction: (o, reason, received) => ({
    subject: `Заявка №${o.number}: нужно ваше решение`,
    paragraphs: [
      reason === 'refund_required'
        ? `По итогам проверки мы не можем принять средства по заявке №${o.number}; они будут возвращены вам.`
        : reason === 'late_payment' && received
          ? `Ваш платёж ${received} по заявке №${o.number} пришёл после окончания срока оплаты.`
          : (reason === 'underpaid' || reason === 'overpaid') && received
            ? `Мы получили ${received} по заявке №${o.number} вместо ${o.send}.`
            : `По заявке №${o.number} нужно ваше решение о поступившем платеже.`,
    ],
    ...(received
      ? {
          facts: [
            [RU_WORDS.expected, o.send],
            [RU_WORDS.received, received],
          ] as Facts,
        }
      : {}),
    after: [
      reason === 'refund_required'
        ? 'Откройте заявку и укажите, куда вернуть средства: адрес в сети, из которой вы платили, или IBAN, если вы платили банковским переводом.'
        : 'Откройте заявку и выберите: продолжить по текущему курсу с поступившей суммой или вернуть средства. Пока вы не выберете, ничего не произойдёт; поздний или иной платёж не пропадёт.',
    ],
    action: { label: 'Выбрать на странице заявки', href: o.link },
  }),
  refundInProgress: (o, r) => ({
    subject: `Заявка №${o.number}: идёт возврат`,
    paragraphs: [
      r.cash
        ? `Ваши наличные по заявке №${o.number} ждут в пункте выдачи; оператор сообщит, когда их можно забрать.`
        : r.to
          ? `Мы отправляем ${r.amount} обратно на ${r.to} (заявка №${o.number}).`
          : `Мы отправляем ${r.amount} обратно вам (заявка №${o.number}).`,
    ],
    facts: refundFacts(RU_WORDS, r),
    after: ['Мы напишем вам, когда возврат будет отправлен.'],
    action: { label: RU_WORDS.open, href: o.link },
  }),
  refunded: (o, r) => ({
    subject: `Заявка №${o.number}: средства возвращены`,
    paragraphs: [`Возврат по заявке №${o.number} отправлен.`],
    facts: [
      [RU_WORDS.refundAmount, r.amount],
      [RU_WORDS.refundTx, r.txId],
    ],
    action: { label: RU_WORDS.open, href: o.link },
  }),
  expired: (o, payBy) => ({
    subject: `Заявка №${o.number}: срок оплаты истёк`,
    paragraphs: [
      payBy
        ? `Оплата по заявке №${o.number} не поступила до ${payBy}, поэтому срок заявки истёк.`
        : `Оплата по заявке №${o.number} не поступила вовремя, поэтому срок заявки истёк.`,
    ],
    after: [
      'Если вы уже отправили оплату, напишите в поддержку с номером заявки: поздний платёж не пропадёт, вам предложат продолжить по текущему курсу или вернуть средства.',
      'Чтобы обменять снова, создайте новую заявку на главной странице.',
    ],
    links: [{ label: 'Написать в поддержку', href: o.contact }],
    action: { label: RU_WORDS.open, href: o.link },
  }),
};

const UA_WORDS: Words = {
  youSend: 'Ви надсилаєте',
  youReceive: 'Ви отримуєте',
  payoutTo: 'Виплата на',
  payoutMemo: 'Memo / тег виплати',
  requisitesBy: 'Реквізити до',
  payBy: 'Оплата має надійти до',
  reason: 'Причина',
  payoutTx: 'ID транзакції виплати',
  expected: 'Очікувалося',
  received: 'Отримано',
  refundAmount: 'Повернення',
  refundTo: 'Повернення на',
  refundMemo: 'Memo / тег',
  refundTx: 'ID транзакції повернення',
  open: 'Відкрити заявку',
};

const UA_SIDE: SideTexts = {
  holdCategories: {
    aml_review: 'Планова AML-перевірка вхідного переказу.',
    source_of_funds: 'Потрібно підтвердити походження коштів.',
    sanctions_screening: 'Адресу або банк відправника перевіряють за санкційними списками.',
    identity_verification: 'Потрібно підтвердити особу платника.',
  },
  holdWhatToDo: {
    aml_review: 'Поки нічого: більшість перевірок завершується за кілька годин. Ми напишемо вам.',
    source_of_funds:
      'Дайте відповідь на наш лист або напишіть у підтримку, додавши документ про походження коштів (виписку з біржі, рахунок, розрахунковий лист).',
    sanctions_screening:
      'Поки нічого. Якщо знадобиться більше, ми напишемо; ви також можете звернутися до підтримки.',
    identity_verification:
      'Дайте відповідь на наш лист або напишіть у підтримку, додавши документ, що посвідчує особу платника.',
  },
};

const UA: OrderTemplates = {
  cash: 'готівка',
  created: (o, d) => ({
    subject: `Заявку №${o.number} створено`,
    paragraphs: [`Дякуємо! Вашу заявку №${o.number} створено.`],
    facts: [
      ...orderFacts(UA_WORDS, o),
      ...when(d.requisitesDue, [[UA_WORDS.requisitesBy, d.requisitesDue ?? '']]),
    ],
    after: [
      d.requisitesDue
        ? `Оператор підготує реквізити для оплати до ${d.requisitesDue} (зазвичай протягом 2–10 хвилин). Ми повідомимо листом, щойно вони будуть готові; самі реквізити ви побачите на сторінці заявки, увійшовши в акаунт.`
        : 'Оператор підготує реквізити для оплати протягом 2–10 хвилин. Ми повідомимо листом, щойно вони будуть готові; самі реквізити ви побачите на сторінці заявки, увійшовши в акаунт.',
    ],
    links: [
      {
        intro:
          'Стежити за заявкою можна й без входу в акаунт, за її секретним посиланням. Будь-хто, хто має це посилання, може стежити за заявкою (лише перегляд), тому не передавайте його і не пересилайте цей лист.',
        label: 'Стежити за заявкою',
        href: d.secretLink,
      },
    ],
    action: { label: UA_WORDS.open, href: o.link },
  }),
  waitingForPayment: (o, d) => ({
    subject: `Заявка №${o.number}: реквізити для оплати готові`,
    paragraphs: [
      `Реквізити для оплати заявки №${o.number} готові на сторінці заявки. Увійдіть в акаунт і відкрийте заявку: реквізити показано поруч із вашою антифішинговою фразою. Якщо фрази немає або вона інша, це не наша сторінка: не платіть.`,
    ],
    facts: [...orderFacts(UA_WORDS, o), ...when(d.payBy, [[UA_WORDS.payBy, d.payBy ?? '']])],
    after: [
      ...(d.quotedReceive
        ? [
            `Оператор затримався, тому ми перерахували заявку за кращим курсом: ви отримаєте ${o.receive} замість ${d.quotedReceive}.`,
          ]
        : []),
      d.payBy
        ? `Надішліть рівно ${o.send}; оплата має надійти до ${d.payBy}. Поки ви не оплатили, заявку можна скасувати на її сторінці.`
        : `Надішліть рівно ${o.send}. Поки ви не оплатили, заявку можна скасувати на її сторінці.`,
      'Ми ніколи не надсилаємо реквізити e-mail або в Telegram: повідомлення з адресою чи рахунком для оплати надіслали не ми.',
    ],
    action: { label: UA_WORDS.open, href: o.link },
  }),
  paid: (o, settled) => ({
    subject: `Заявка №${o.number}: оплату отримано`,
    paragraphs: [
      settled
        ? `Ми отримали вашу оплату за заявкою №${o.number}. Як ви обрали, отримані ${settled.received} обміняно за поточним курсом: сервіс надсилає вам ${settled.receive}; це може зайняти деякий час.`
        : `Ми отримали вашу оплату за заявкою №${o.number}. Сервіс надсилає вам ${o.receive}; це може зайняти деякий час.`,
    ],
    action: { label: UA_WORDS.open, href: o.link },
  }),
  completed: (o, tx) => ({
    subject: `Заявку №${o.number} виконано`,
    paragraphs: [`Заявка №${o.number}: переказ успішно виконано.`],
    facts: [
      ['Ви отримали', o.receive],
      [UA_WORDS.payoutTx, tx],
    ],
    action: { label: UA_WORDS.open, href: o.link },
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
  onHold: (o, category) => ({
    subject: `Заявка №${o.number}: платіж призупинено`,
    paragraphs: [
      `Ваш платіж за заявкою №${o.number} призупинено. Служба комплаєнсу перевіряє отримані кошти, як вимагає AML-політика. Ваші гроші в безпеці, під час перевірки нічого не втрачається.`,
    ],
    ...(category ? { facts: [[UA_WORDS.reason, UA_SIDE.holdCategories[category]]] } : {}),
    after: category ? [`Що ви можете зробити: ${UA_SIDE.holdWhatToDo[category]}`] : [],
    links: [{ label: 'Написати в підтримку', href: o.contact }],
    action: { label: UA_WORDS.open, href: o.link },
  }),
  needsUserAction: (o, reason, received) => ({
    subject: `Заявка №${o.number}: потрібне ваше рішення`,
    paragraphs: [
      reason === 'refund_required'
        ? `За підсумками перевірки ми не можемо прийняти кошти за заявкою №${o.number}; їх буде повернено вам.`
        : reason === 'late_payment' && received
          ? `Ваш платіж ${received} за заявкою №${o.number} надійшов після закінчення терміну оплати.`
          : (reason === 'underpaid' || reason === 'overpaid') && received
            ? `Ми отримали ${received} за заявкою №${o.number} замість ${o.send}.`
            : `За заявкою №${o.number} потрібне ваше рішення щодо отриманого платежу.`,
    ],
    ...(received
      ? {
          facts: [
            [UA_WORDS.expected, o.send],
            [UA_WORDS.received, received],
          ] as Facts,
        }
      : {}),
    after: [
      reason === 'refund_required'
        ? 'Відкрийте заявку та вкажіть, куди повернути кошти: адресу в мережі, з якої ви платили, або IBAN, якщо ви платили банківським переказом.'
        : 'Відкрийте заявку та оберіть: продовжити за поточним курсом з отриманою сумою або повернути кошти. Доки ви не оберете, нічого не відбудеться; пізній чи інший платіж не зникне.',
    ],
    action: { label: 'Обрати на сторінці заявки', href: o.link },
  }),
  refundInProgress: (o, r) => ({
    subject: `Заявка №${o.number}: триває повернення`,
    paragraphs: [
      r.cash
        ? `Ваша готівка за заявкою №${o.number} чекає в пункті видачі; оператор повідомить, коли її можна забрати.`
        : r.to
          ? `Ми надсилаємо ${r.amount} назад на ${r.to} (заявка №${o.number}).`
          : `Ми надсилаємо ${r.amount} назад вам (заявка №${o.number}).`,
    ],
    facts: refundFacts(UA_WORDS, r),
    after: ['Ми напишемо вам, коли повернення буде надіслано.'],
    action: { label: UA_WORDS.open, href: o.link },
  }),
  refunded: (o, r) => ({
    subject: `Заявка №${o.number}: кошти повернено`,
    paragraphs: [`Повернення за заявкою №${o.number} надіслано.`],
    facts: [
      [UA_WORDS.refundAmount, r.amount],
      [UA_WORDS.refundTx, r.txId],
    ],
    action: { label: UA_WORDS.open, href: o.link },
  }),
  expired: (o, payBy) => ({
    subject: `Заявка №${o.number}: термін оплати минув`,
    paragraphs: [
      payBy
        ? `Оплата за заявкою №${o.number} не надійшла до ${payBy}, тому термін заявки минув.`
        : `Оплата за заявкою №${o.number} не надійшла вчасно, тому термін заявки минув.`,
    ],
    after: [
      'Якщо ви вже надіслали оплату, напишіть у підтримку з номером заявки: пізній платіж не зникне, вам запропонують продовжити за поточним курсом або повернути кошти.',
      'Щоб обміняти знову, створіть нову заявку на головній сторінці.',
    ],
    links: [{ label: 'Написати в підтримку', href: o.contact }],
    action: { label: UA_WORDS.open, href: o.link },
  }),
};

export const ORDER_TEMPLATES: Record<Locale, OrderTemplates> = { en: EN, ru: RU, ua: UA };
