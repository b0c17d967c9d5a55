import { describe, expect, it } from 'vitest';

import {
  LOCALES,
  localeOf,
  ORDER_TEMPLATES,
  type OrderFacts,
  type Requisites,
} from './order-templates.ts';
import { displayAmount, orderLinks } from './orders.ts';
import { multiLine, oneLine, render } from './render.ts';
import { supportRequestMail } from './support.ts';

const order: OrderFacts = {
  number: '100042',
  fullName: 'Eve <img src=x onerror=alert(1)>',
  send: '0.015 BTC',
  receive: '1398.6 USDT (TRC20)',
  payoutTo: 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC',
  link: 'https://exchange.example/ru/transaction/0b0c6a4e-8f43-4d1c-9d43-8e2b0f7f6e0a',
  home: 'https://exchange.example/ru/',
};
const bank: Requisites = {
  kind: 'bank',
  beneficiary: 'Exchange & Co "Ltd"',
  accountNumber: 'DE89370400440532013000',
  swiftBic: 'COBADEFFXXX',
  bankAddress: 'Berlin',
  reference: 'EX-100042',
};

describe('order e-mail templates', () => {
  it('has every letter in every locale, and English for an unknown locale', () => {
    for (const locale of LOCALES) {
      const t = ORDER_TEMPLATES[locale];
      const letters = [
        t.created(order),
        t.waitingForPayment(order, bank),
        t.waitingForPayment(order, { kind: 'crypto', address: 'addr', memo: null, network: null }),
        t.paid(order),
        t.completed(order, 'tx-1'),
        t.canceled(order, 'user', null),
        t.canceled(order, 'staff', 'No payment'),
      ];
      for (const letter of letters) {
        expect(letter.subject).toContain('100042');
        expect(letter.action?.href).toMatch(/^https:\/\/exchange\.example\/ru\//);
      }
    }
    expect(localeOf('ua')).toBe('ua');
    expect(localeOf('de')).toBe('en');
    expect(localeOf('__proto__')).toBe('en');
    expect(localeOf(null)).toBe('en');
  });

  it('escapes every value in HTML and keeps the text part as typed', () => {
    const mail = render(ORDER_TEMPLATES.en.waitingForPayment(order, bank), 'a@example.com');
    expect(mail.text).toContain('Beneficiary: Exchange & Co "Ltd"');
    expect(mail.html).toContain('Exchange &amp; Co &quot;Ltd&quot;');
    const created = render(ORDER_TEMPLATES.en.created(order), 'a@example.com');
    expect(created.html).not.toContain('<img');
    expect(created.html).toContain('Eve &lt;img src=x onerror=alert(1)&gt;');
    expect(created.html).toContain(`<a href="${order.link}">Open the order</a>`);
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
