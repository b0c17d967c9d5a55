import { describe, expect, it } from 'vitest';

import { ORDER_TEMPLATES, type OrderFacts } from './order-templates.ts';
import { displayAmount, orderLinks, utcTime } from './orders.ts';
import { localeOrDefault, LOCALES } from '@app/shared/i18n';
import { ACTION_REASONS, HOLD_CATEGORIES } from '@app/shared/orders/vocabulary';

import { OrderRow } from './payload.ts';
import { multiLine, oneLine, render } from './render.ts';
import { supportRequestMail } from './support.ts';

const order: OrderFacts = {
  number: '100042',
  send: '0.015 BTC',
  receive: '1398.6 USDT (TRC20)',
  payoutTo: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
  payoutMemo: null,
  link: 'https://exchange.example/ru/transaction/0b0c6a4e-8f43-4d1c-9d43-8e2b0f7f6e0a',
  home: 'https://exchange.example/ru/',
  contact: 'https://exchange.example/ru/contact',
};
const secretLink = 'https://exchange.example/ru/order/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('order e-mail templates', () => {
  it('has every letter in every locale, and English for an unknown locale', () => {
    for (const locale of LOCALES) {
      const t = ORDER_TEMPLATES[locale];
      const letters = [
        t.created(order, { requisitesDue: '2026-01-05 14:30 UTC', secretLink }),
        t.created(order, { requisitesDue: null, secretLink }),
        t.waitingForPayment(order, { payBy: '2026-01-05 15:00 UTC', quotedReceive: null }),
        t.waitingForPayment(order, { payBy: null, quotedReceive: '1300 USDT (TRC20)' }),
        t.paid(order, null),
        t.paid(order, { received: '0.014 BTC', receive: '1290.1 USDT (TRC20)' }),
        t.completed(order, 'tx-1'),
        t.canceled(order, 'user', null),
        t.canceled(order, 'staff', 'No payment'),
        t.onHold(order, null),
        ...HOLD_CATEGORIES.map((category) => t.onHold(order, category)),
        t.needsUserAction(order, null, null),
        ...ACTION_REASONS.map((reason) => t.needsUserAction(order, reason, '0.014 BTC')),
        t.refundInProgress(order, {
          amount: '0.014 BTC',
          to: 'bc1qrefund',
          memo: null,
          cash: false,
        }),
        t.refundInProgress(order, { amount: '100 USD (cash)', to: null, memo: null, cash: true }),
        t.refunded(order, { amount: '0.014 BTC', txId: 'refund-tx' }),
        t.expired(order, '2026-01-05 15:00 UTC'),
        t.expired(order, null),
      ];
      for (const letter of letters) {
        expect(letter.subject).toContain('100042');
        expect(letter.action?.href).toMatch(/^https:\/\/exchange\.example\/ru\//);
        // Every sentence is written out: no placeholder or missing value slipped in.
        const text = render(letter, 'a@example.com').text;
        expect(text).not.toMatch(/undefined|null|\{\{|\$\{/);
      }
      const created = render(
        t.created(order, { requisitesDue: '2026-01-05 14:30 UTC', secretLink }),
        'a@example.com',
      );
      expect(created.text).toContain('2026-01-05 14:30 UTC');
      expect(created.text).toContain(secretLink);
      const payment = render(
        t.waitingForPayment(order, { payBy: '2026-01-05 15:00 UTC', quotedReceive: '1300 X' }),
        'a@example.com',
      );
      expect(payment.text).toContain('2026-01-05 15:00 UTC');
      expect(payment.text).toContain('1300 X');
      // Each hold category and each reason says something of its own.
      const holds = HOLD_CATEGORIES.map((c) => render(t.onHold(order, c), 'a@x.example').text);
      expect(new Set(holds).size).toBe(HOLD_CATEGORIES.length);
      expect(
        render(t.refunded(order, { amount: '1 BTC', txId: 'refund-tx-9' }), 'a@x.example').text,
      ).toContain('refund-tx-9');
    }
    expect(localeOrDefault('ua')).toBe('ua');
    expect(localeOrDefault('de')).toBe('en');
    expect(localeOrDefault('__proto__')).toBe('en');
    expect(localeOrDefault(null)).toBe('en');
  });

  it('escapes every value in HTML and keeps the text part as typed', () => {
    const created = render(
      ORDER_TEMPLATES.en.created(
        { ...order, payoutMemo: 'Eve <img src=x onerror=alert(1)>' },
        { requisitesDue: null, secretLink },
      ),
      'a@example.com',
    );
    expect(created.text).toContain('Eve <img src=x onerror=alert(1)>');
    expect(created.html).not.toContain('<img');
    expect(created.html).toContain('Eve &lt;img src=x onerror=alert(1)&gt;');
    expect(created.html).toContain(`<a href="${order.link}">Open the order</a>`);
    expect(created.html).toContain(`<a href="${secretLink}">Follow the order</a>`);
    const refund = render(
      ORDER_TEMPLATES.en.refundInProgress(order, {
        amount: '1 BTC',
        to: 'a"<b>',
        memo: 'm&m',
        cash: false,
      }),
      'a@example.com',
    );
    expect(refund.html).toContain('a&quot;&lt;b&gt;');
    expect(refund.html).toContain('m&amp;m');
  });

  it("reads the event row's timestamps as UTC times", () => {
    expect(utcTime('2026-01-05T14:30:59.123456+03:00')).toBe('2026-01-05 11:30 UTC');
    expect(utcTime('2026-01-05T14:30:00+00:00')).toBe('2026-01-05 14:30 UTC');
    expect(utcTime('2026-01-05 14:30:00.5+02')).toBe('2026-01-05 12:30 UTC');
    expect(utcTime('2026-01-05T14:30:00Z')).toBe('2026-01-05 14:30 UTC');
    expect(utcTime(null)).toBeNull();
    expect(utcTime('not a time')).toBeNull();
  });

  it('shows a staff cancellation reason, not a user one', () => {
    expect(ORDER_TEMPLATES.ru.canceled(order, 'staff', 'Нет оплаты').facts).toEqual([
      ['Причина', 'Нет оплаты'],
    ]);
    expect(ORDER_TEMPLATES.ru.canceled(order, 'user', 'ignored').facts).toBeUndefined();
  });

  it('links the locale variant of the transaction page', () => {
    const id = '0b0c6a4e-8f43-4d1c-9d43-8e2b0f7f6e0a';
    expect(orderLinks('https://x.example', 'en', id)).toEqual({
      link: `https://x.example/transaction/${id}`,
      home: 'https://x.example/',
      contact: 'https://x.example/contact',
    });
    expect(orderLinks('https://x.example', 'ua', id).link).toBe(
      `https://x.example/ua/transaction/${id}`,
    );
  });

  it('prints amounts exactly, without trailing zeros', () => {
    expect(displayAmount('0.01500000')).toBe('0.015');
    expect(displayAmount('1000.00')).toBe('1000');
    expect(displayAmount('1000')).toBe('1000');
    expect(displayAmount('0.000000000000000001')).toBe('0.000000000000000001');
  });
});

describe('support request e-mail', () => {
  const request = {
    id: '5d7b3c1e-0000-4000-8000-000000000001',
    name: 'Mallory\r\nBcc: victim@example.com',
    email: 'mallory@example.com',
    order_id: null,
    subject: null,
    message: 'Line 1\r\nLine 2\u0007',
    created_at: '2026-01-01T10:00:00+00:00',
  };

  it('keeps header-bound text on one line and the message lines as written', () => {
    const mail = supportRequestMail(request, 'inbox@exchange.example', 'https://exchange.example');
    expect(mail.to).toBe('inbox@exchange.example');
    expect(mail.subject).toBe('Support request from Mallory Bcc: victim@example.com');
    expect(mail.replyTo).toBe('mallory@example.com');
    expect(mail.text).toContain('Line 1\nLine 2\n');
    expect(mail.text).toContain('Order ID: —');
    expect(mail.text).toContain('https://exchange.example/admin/support-requests');
  });

  it('sets Reply-To only for a plain address', () => {
    const odd = { ...request, email: '"a,b"@example.com' };
    expect(
      supportRequestMail(odd, 'inbox@exchange.example', 'https://x.example').replyTo,
    ).toBeUndefined();
  });

  it('sanitises typed text', () => {
    expect(oneLine(' a\u2028b\tc ')).toBe('a b c');
    expect(multiLine('a\r\nb\u0000c')).toBe('a\nbc');
  });
});

describe('order rows of events', () => {
  const before10 = {
    id: '0b0c6a4e-8f43-4d1c-9d43-8e2b0f7f6e0a',
    number: 100999,
    send_currency: 'EUR',
    receive_currency: 'BTC',
    send_amount: 1000,
    receive_amount: '0.0123',
    status: 'paid',
    email: 'a@example.com',
    full_name: 'Legacy',
    locale: 'en',
    wallet_address: 'bc1q-payout',
    iban: null,
  };

  it('reads a row logged before the trust columns existed', () => {
    const row = OrderRow.parse(before10);
    expect(row).toMatchObject({
      number: '100999',
      send_amount: '1000',
      pay_by: null,
      requisites_due_at: null,
      action_reason: null,
      hold_category: null,
      received_amount: null,
      settled_receive_amount: null,
      refund_tx_id: null,
    });
  });

  it('reads the side states and their columns, an unknown reason as none', () => {
    const row = OrderRow.parse({
      ...before10,
      status: 'needs_user_action',
      action_reason: 'underpaid',
      hold_category: 'no_such_category',
      received_amount: 0.018,
      pay_by: '2026-01-05T14:30:00.123456+00:00',
    });
    expect(row).toMatchObject({
      status: 'needs_user_action',
      action_reason: 'underpaid',
      hold_category: null,
      received_amount: '0.018',
      pay_by: '2026-01-05T14:30:00.123456+00:00',
    });
    for (const status of ['on_hold', 'refund_in_progress', 'refunded', 'expired'])
      expect(OrderRow.parse({ ...before10, status }).status).toBe(status);
    expect(OrderRow.safeParse({ ...before10, status: 'lost' }).success).toBe(false);
  });
});
