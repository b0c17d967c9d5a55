import type { Locale } from '@app/shared/i18n';
import { serverT } from '@app/shared/i18n/server';
import type { ActionReason, HoldCategory } from '@app/shared/orders/vocabulary';

import type { Letter } from './render.ts';

/*
 * The order e-mails in the order's locale (transactions.locale: en, ru, ua). Each template
 * gets display-ready strings (amounts with their currency, times, links) and returns a Letter;
 * the words are the shared server catalog's (@app/shared/i18n/server, namespace orderMail).
 *
 * No letter carries payment details (a deposit address, a memo, a bank account, a payment
 * reference): those appear only on the signed-in order page, next to the user's
 * anti-phishing phrase (docs/decisions/015-order-trust.md). The letters say what changed and
 * link back. The user's own payout and refund addresses are theirs, not requisites.
 */

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

type Facts = Array<[string, string]>;

const when = (condition: unknown, facts: Facts): Facts => (condition ? facts : []);

/** The letters of one locale, worded by its catalog. */
function orderTemplates(locale: Locale): OrderTemplates {
  const t = serverT(locale, 'orderMail');
  const open = t('words.open');

  const orderFacts = (o: OrderFacts): Facts => [
    [t('words.youSend'), o.send],
    [t('words.youReceive'), o.receive],
    ...when(o.payoutTo, [[t('words.payoutTo'), o.payoutTo ?? '']]),
    ...when(o.payoutMemo, [[t('words.payoutMemo'), o.payoutMemo ?? '']]),
  ];

  const refundFacts = (r: Refund): Facts => [
    [t('words.refundAmount'), r.amount],
    ...when(r.to, [[t('words.refundTo'), r.to ?? '']]),
    ...when(r.to && r.memo, [[t('words.refundMemo'), r.memo ?? '']]),
  ];

  return {
    cash: t('cash'),
    created: (o, d) => ({
      subject: t('created.subject', { number: o.number }),
      paragraphs: [t('created.intro', { number: o.number })],
      facts: [
        ...orderFacts(o),
        ...when(d.requisitesDue, [[t('words.requisitesBy'), d.requisitesDue ?? '']]),
      ],
      after: [
        d.requisitesDue
          ? t('created.detailsBy', { due: d.requisitesDue })
          : t('created.detailsSoon'),
      ],
      links: [
        {
          intro: t('created.secretLinkIntro'),
          label: t('created.secretLinkLabel'),
          href: d.secretLink,
        },
      ],
      action: { label: open, href: o.link },
    }),
    waitingForPayment: (o, d) => ({
      subject: t('waitingForPayment.subject', { number: o.number }),
      paragraphs: [t('waitingForPayment.intro', { number: o.number })],
      facts: [...orderFacts(o), ...when(d.payBy, [[t('words.payBy'), d.payBy ?? '']])],
      after: [
        ...(d.quotedReceive
          ? [t('waitingForPayment.requoted', { receive: o.receive, quoted: d.quotedReceive })]
          : []),
        d.payBy
          ? t('waitingForPayment.sendBy', { send: o.send, payBy: d.payBy })
          : t('waitingForPayment.send', { send: o.send }),
        t('waitingForPayment.neverByMail'),
      ],
      action: { label: open, href: o.link },
    }),
    paid: (o, settled) => ({
      subject: t('paid.subject', { number: o.number }),
      paragraphs: [
        settled
          ? t('paid.settled', {
              number: o.number,
              received: settled.received,
              receive: settled.receive,
            })
          : t('paid.intro', { number: o.number, receive: o.receive }),
      ],
      action: { label: open, href: o.link },
    }),
    completed: (o, tx) => ({
      subject: t('completed.subject', { number: o.number }),
      paragraphs: [t('completed.intro', { number: o.number })],
      facts: [
        [t('completed.youReceived'), o.receive],
        [t('words.payoutTx'), tx],
      ],
      action: { label: open, href: o.link },
    }),
    canceled: (o, by, reason) => ({
      subject: t('canceled.subject', { number: o.number }),
      paragraphs: [
        by === 'user'
          ? t('canceled.byUser', { number: o.number })
          : t('canceled.byStaff', { number: o.number }),
      ],
      ...(by === 'staff' && reason ? { facts: [[t('words.reason'), reason]] as Facts } : {}),
      after: [t('canceled.again')],
      action: { label: t('canceled.home'), href: o.home },
    }),
    onHold: (o, category) => ({
      subject: t('onHold.subject', { number: o.number }),
      paragraphs: [t('onHold.intro', { number: o.number })],
      ...(category
        ? { facts: [[t('words.reason'), t(`holdCategories.${category}`)]] as Facts }
        : {}),
      after: category ? [t('onHold.whatToDo', { whatToDo: t(`holdWhatToDo.${category}`) })] : [],
      links: [{ label: t('onHold.support'), href: o.contact }],
      action: { label: open, href: o.link },
    }),
    needsUserAction: (o, reason, received) => ({
      subject: t('needsUserAction.subject', { number: o.number }),
      paragraphs: [
        reason === 'refund_required'
          ? t('needsUserAction.refundRequired', { number: o.number })
          : reason === 'late_payment' && received
            ? t('needsUserAction.latePayment', { number: o.number, received })
            : (reason === 'underpaid' || reason === 'overpaid') && received
              ? t('needsUserAction.wrongAmount', { number: o.number, received, send: o.send })
              : t('needsUserAction.decide', { number: o.number }),
      ],
      ...(received
        ? {
            facts: [
              [t('words.expected'), o.send],
              [t('words.received'), received],
            ] as Facts,
          }
        : {}),
      after: [
        reason === 'refund_required'
          ? t('needsUserAction.whereToReturn')
          : t('needsUserAction.choose'),
      ],
      action: { label: t('needsUserAction.action'), href: o.link },
    }),
    refundInProgress: (o, r) => ({
      subject: t('refundInProgress.subject', { number: o.number }),
      paragraphs: [
        r.cash
          ? t('refundInProgress.cash', { number: o.number })
          : r.to
            ? t('refundInProgress.sendingTo', { number: o.number, amount: r.amount, to: r.to })
            : t('refundInProgress.sending', { number: o.number, amount: r.amount }),
      ],
      facts: refundFacts(r),
      after: [t('refundInProgress.willMail')],
      action: { label: open, href: o.link },
    }),
    refunded: (o, r) => ({
      subject: t('refunded.subject', { number: o.number }),
      paragraphs: [t('refunded.intro', { number: o.number })],
      facts: [
        [t('words.refundAmount'), r.amount],
        [t('words.refundTx'), r.txId],
      ],
      action: { label: open, href: o.link },
    }),
    expired: (o, payBy) => ({
      subject: t('expired.subject', { number: o.number }),
      paragraphs: [
        payBy
          ? t('expired.notBy', { number: o.number, payBy })
          : t('expired.notInTime', { number: o.number }),
      ],
      after: [t('expired.alreadySent'), t('expired.again')],
      links: [{ label: t('expired.support'), href: o.contact }],
      action: { label: open, href: o.link },
    }),
  };
}

export const ORDER_TEMPLATES: Record<Locale, OrderTemplates> = {
  en: orderTemplates('en'),
  ru: orderTemplates('ru'),
  ua: orderTemplates('ua'),
};
