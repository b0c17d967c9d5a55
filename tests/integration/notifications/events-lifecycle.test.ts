import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { mailContent } from '../../support/mailbox.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';

import {
  COMPLETE,
  CONFIRM,
  cryptoPair,
  deposit,
  html,
  REFUND_BTC,
  REFUND_IBAN,
  STAFF_CANCEL,
  SUPPLY,
  TRC20_ADDRESS,
  until,
  useNotificationsWorld,
  WEB,
} from './notifications-world.ts';

/*
 * An order's mails through its lifecycle, through the real parts (notifications-world.ts):
 * payment details ready (never the details themselves), payment, completion and a staff
 * cancellation, then the side states of decision 015 (underpayment and continuing at the
 * current rate, holds, refunds, expiry and late payments, re-quotes) in each customer's
 * language. Last, the requisites scan itself is tested, and every mail this file's world sent
 * is scanned with both kinds of details in the database.
 */

describe.each(databaseTargets)('order and support notifications on $name', (target) => {
  const world = useNotificationsWorld(target);
  const { staff, graphql, insertOrder, move, giveRequisites, utcOf, mailWith } = world;

  it('mails that the details are ready (not the deposit address), then payment and completion', async () => {
    const email = 'carol.en@example.com';
    const order = await insertOrder({
      email,
      locale: 'en',
      pair: {
        from: 'BTC',
        to: 'USDTTRC20',
        send: '0.02',
        receive: '1234.5',
        wallet: TRC20_ADDRESS,
      },
    });
    await world.mailbox.waitFor(email, (m) => m.subject === `Order #${order.number} created`);

    const { address, memo } = deposit();
    await graphql(SUPPLY, { id: order.id, address, memo }, staff);
    const requisites = await mailWith(email, `Order #${order.number}: payment details are ready`);
    expect(requisites.text).toContain(
      `The payment details for order #${order.number} are ready on the order page. Sign in`,
    );
    expect(requisites.text).toContain('shown next to your anti-phishing phrase');
    const payBy = await utcOf(order.id, 'pay_by');
    expect(requisites.text).toContain(
      `Please send exactly 0.02 BTC; the payment must arrive by ${payBy}.`,
    );
    expect(requisites.text).toContain(`Payment must arrive by: ${payBy}`);
    expect(requisites.text).toContain('We never send payment details by e-mail or in Telegram');
    expect(requisites.text).toContain(`${WEB}/transaction/${order.id}`);
    expect(requisites.text).not.toContain(address);
    expect(requisites.text).not.toContain(memo);
    expect(html(requisites)).not.toContain(address);
    expect(requisites.text).not.toContain('re-quoted');

    await graphql(CONFIRM, { id: order.id }, staff);
    const paid = await world.mailbox.waitFor(
      email,
      (m) => m.subject?.includes('payment received') ?? false,
    );
    expect(paid.text).toContain('The service is sending you 1234.5 USDT (TRC20)');

    await graphql(COMPLETE, { id: order.id, tx: 'payout-tx-42' }, staff);
    const completed = await world.mailbox.waitFor(
      email,
      (m) => m.subject?.includes('completed') ?? false,
    );
    expect(completed.subject).toBe(`Order #${order.number} completed`);
    expect(completed.text).toContain('this transfer was successfully completed');
    expect(completed.text).toContain('Payout transaction ID: payout-tx-42');
  });

  it("mails a staff cancellation with the staff's reason", async () => {
    const email = 'dave.ru@example.com';
    const order = await insertOrder({ email, locale: 'ru' });
    await world.mailbox.waitFor(email);
    await graphql(STAFF_CANCEL, { id: order.id, reason: 'Платёж <не> найден' }, staff);
    const mail = await world.mailbox.waitFor(
      email,
      (m) => m.subject?.includes('отменена') ?? false,
    );
    expect(mail.subject).toBe(`Заявка №${order.number} отменена`);
    expect(mail.text).toContain('отменена сервисом');
    expect(mail.text).toContain('Причина: Платёж <не> найден');
    expect(html(mail)).toContain('Платёж &lt;не&gt; найден');
    expect(mail.text).toContain(`${WEB}/ru/`);
  });

  it('mails an underpayment, the choice to continue at the current rate, and the payout', async () => {
    const email = 'underpaid.en@example.com';
    const order = await insertOrder({ email, locale: 'en', pair: cryptoPair });
    await mailWith(email, `Order #${order.number} created`);
    await giveRequisites(order.id, 'crypto');
    await mailWith(email, `Order #${order.number}: payment details are ready`);

    await move(
      order.id,
      `status = 'needs_user_action', action_reason = 'underpaid',
                          received_amount = 0.018`,
    );
    const action = await mailWith(email, `Order #${order.number}: we need your decision`);
    expect(action.text).toContain(
      `We received 0.018 BTC for order #${order.number} instead of 0.02 BTC.`,
    );
    expect(action.text).toContain('Expected: 0.02 BTC\nReceived: 0.018 BTC');
    expect(action.text).toContain(
      'Open the order and choose: continue at the current rate with the amount that arrived, or get a refund.',
    );
    expect(action.text).toContain(`Choose on the order page: ${WEB}/transaction/${order.id}`);

    await move(
      order.id,
      `status = 'paid', settled_receive_amount = 1111.1, settled_rate = 61727.78`,
    );
    const paid = await mailWith(email, `Order #${order.number}: payment received`);
    expect(paid.text).toContain(
      'As you chose, the 0.018 BTC that arrived was exchanged at the current rate: the service is sending you 1111.1 USDT (TRC20)',
    );
    expect(paid.text).not.toContain('1234.5');

    await move(order.id, `status = 'completed', payout_tx_id = 'payout-tx-settled'`);
    const completed = await mailWith(email, `Order #${order.number} completed`);
    expect(completed.text).toContain('You received: 1111.1 USDT (TRC20)');
    expect(completed.text).toContain('Payout transaction ID: payout-tx-settled');
  });

  it('mails a hold, a refund the review requires, and the refund, in Russian (bank order)', async () => {
    const email = 'hold.ru@example.com';
    const order = await insertOrder({ email, locale: 'ru' });
    await mailWith(email, `Заявка №${order.number} создана`);
    await giveRequisites(order.id, 'bank');
    await mailWith(email, `Заявка №${order.number}: реквизиты для оплаты готовы`);

    await move(order.id, `status = 'on_hold', hold_category = 'source_of_funds'`);
    const hold = await mailWith(email, `Заявка №${order.number}: платёж приостановлен`);
    expect(hold.text).toContain(`Ваш платёж по заявке №${order.number} приостановлен.`);
    expect(hold.text).toContain('Ваши деньги в безопасности');
    expect(hold.text).toContain('Причина: Нужно подтвердить происхождение средств.');
    expect(hold.text).toContain(
      'Что вы можете сделать: Ответьте на наше письмо или напишите в поддержку, приложив документ о происхождении средств',
    );
    expect(hold.text).toContain(`Написать в поддержку: ${WEB}/ru/contact`);

    await move(order.id, `status = 'needs_user_action', action_reason = 'refund_required'`);
    const action = await mailWith(email, `Заявка №${order.number}: нужно ваше решение`);
    expect(action.text).toContain(
      `По итогам проверки мы не можем принять средства по заявке №${order.number}; они будут возвращены вам.`,
    );
    expect(action.text).toContain('укажите, куда вернуть средства');
    expect(action.text).not.toContain('продолжить по текущему курсу');
    expect(action.text).toContain(`${WEB}/ru/transaction/${order.id}`);

    await move(order.id, `status = 'refund_in_progress', refund_address = $2`, [REFUND_IBAN]);
    const refund = await mailWith(email, `Заявка №${order.number}: идёт возврат`);
    expect(refund.text).toContain(`Мы отправляем 1000 EUR обратно на ${REFUND_IBAN}`);
    expect(refund.text).toContain(`Возврат: 1000 EUR\nВозврат на: ${REFUND_IBAN}`);

    await move(order.id, `status = 'refunded', refund_tx_id = 'SEPA-REF-778899'`);
    const refunded = await mailWith(email, `Заявка №${order.number}: средства возвращены`);
    expect(refunded.text).toContain(`Возврат по заявке №${order.number} отправлен.`);
    expect(refunded.text).toContain('ID транзакции возврата: SEPA-REF-778899');
  });

  it('mails an expiry, then a late payment refunded, in English (crypto order)', async () => {
    const email = 'late.en@example.com';
    const order = await insertOrder({ email, locale: 'en', pair: cryptoPair });
    await mailWith(email, `Order #${order.number} created`);
    await giveRequisites(order.id, 'crypto');
    await mailWith(email, `Order #${order.number}: payment details are ready`);
    const payBy = await utcOf(order.id, 'pay_by');

    await move(order.id, `status = 'expired'`);
    const expired = await mailWith(email, `Order #${order.number} expired`);
    expect(expired.text).toContain(
      `No payment for order #${order.number} arrived by ${payBy}, so the order expired.`,
    );
    expect(expired.text).toContain('a late payment is never lost');
    expect(expired.text).toContain(`Contact support: ${WEB}/contact`);

    await move(
      order.id,
      `status = 'needs_user_action', action_reason = 'late_payment',
                          received_amount = 0.02`,
    );
    const action = await mailWith(email, `Order #${order.number}: we need your decision`);
    expect(action.text).toContain(
      `Your payment of 0.02 BTC for order #${order.number} arrived after the payment window closed.`,
    );

    await move(
      order.id,
      `status = 'refund_in_progress', refund_address = $2,
                          refund_memo = 'refund-tag-1'`,
      [REFUND_BTC],
    );
    const refund = await mailWith(email, `Order #${order.number}: refund in progress`);
    expect(refund.text).toContain(`We are sending 0.02 BTC back to ${REFUND_BTC}`);
    expect(refund.text).toContain(`Refund to: ${REFUND_BTC}\nMemo / tag: refund-tag-1`);

    await move(order.id, `status = 'refunded', refund_tx_id = 'refund-tx-0042'`);
    const refunded = await mailWith(email, `Order #${order.number} refunded`);
    expect(refunded.text).toContain(`The refund for order #${order.number} was sent.`);
    expect(refunded.text).toContain('Refund: 0.02 BTC\nRefund transaction ID: refund-tx-0042');
  });

  it('mails an expiry, a hold on the late payment and its release, in Ukrainian', async () => {
    const email = 'expired.ua@example.com';
    const order = await insertOrder({ email, locale: 'ua' });
    await mailWith(email, `Заявку №${order.number} створено`);
    await giveRequisites(order.id, 'bank');
    await mailWith(email, `Заявка №${order.number}: реквізити для оплати готові`);
    const payBy = await utcOf(order.id, 'pay_by');

    await move(order.id, `status = 'expired'`);
    const expired = await mailWith(email, `Заявка №${order.number}: термін оплати минув`);
    expect(expired.text).toContain(
      `Оплата за заявкою №${order.number} не надійшла до ${payBy}, тому термін заявки минув.`,
    );
    expect(expired.text).toContain('пізній платіж не зникне');
    expect(expired.text).toContain(`Написати в підтримку: ${WEB}/ua/contact`);

    await move(order.id, `status = 'on_hold', hold_category = 'identity_verification'`);
    const hold = await mailWith(email, `Заявка №${order.number}: платіж призупинено`);
    expect(hold.text).toContain('Причина: Потрібно підтвердити особу платника.');
    expect(hold.text).toContain('документ, що посвідчує особу платника');

    await move(order.id, `status = 'paid'`);
    const paid = await mailWith(email, `Заявка №${order.number}: оплату отримано`);
    expect(paid.text).toContain('Сервіс надсилає вам 0.0123 BTC');
    await move(order.id, `status = 'completed', payout_tx_id = 'payout-tx-ua'`);
    await mailWith(email, `Заявку №${order.number} виконано`);
  });

  it('mails the better amount of a re-quoted order, then a hold and a refund, in English', async () => {
    const email = 'requoted.en@example.com';
    const order = await insertOrder({ email, locale: 'en' });
    await mailWith(email, `Order #${order.number} created`);
    // The operator was late: the same 1000 EUR now gets 0.0125 BTC instead of 0.0123.
    await move(
      order.id,
      `status = 'waiting_for_payment', bank_account_id = $2, payment_reference = 'EX-' || number,
       requoted_at = now(), quoted_receive_amount = receive_amount, quoted_rate = rate,
       receive_amount = 0.0125, rate = 0.0000125`,
      [world.accountId],
    );
    const requoted = await mailWith(email, `Order #${order.number}: payment details are ready`);
    expect(requoted.text).toContain(
      'The operator was late, so we re-quoted your order at the better rate: you get 0.0125 BTC instead of 0.0123 BTC.',
    );
    expect(requoted.text).toContain('You receive: 0.0125 BTC');

    await move(order.id, `status = 'on_hold', hold_category = 'aml_review'`);
    const hold = await mailWith(email, `Order #${order.number}: payment on hold`);
    expect(hold.text).toContain('Reason: Routine AML review of the incoming transfer.');
    expect(hold.text).toContain(
      'What you can do: Nothing for now: most reviews finish within a few hours. We will e-mail you.',
    );

    // Released to a refund: the refund IBAN was given with the order.
    await move(order.id, `status = 'refund_in_progress', refund_address = $2`, [REFUND_IBAN]);
    const refund = await mailWith(email, `Order #${order.number}: refund in progress`);
    expect(refund.text).toContain(`We are sending 1000 EUR back to ${REFUND_IBAN}`);
  });

  it('has a requisites scan that catches a detail however it is printed', async () => {
    const { rows } = await world.db.pool.query<{
      address: string;
      memo: string;
      reference: string;
    }>(
      `SELECT d.deposit_address AS address, d.deposit_memo AS memo, b.payment_reference AS reference
         FROM transactions d, transactions b
        WHERE d.deposit_memo IS NOT NULL AND b.payment_reference IS NOT NULL LIMIT 1`,
    );
    const { address, memo, reference } = rows[0]!;
    const leaks: Array<[string, RegExp]> = [
      [`Pay to ${address.toUpperCase()} now`, /transactions\.deposit_address/],
      [`Memo:${memo}.`, /transactions\.deposit_memo/],
      [`Reference ${reference}`, /transactions\.payment_reference/],
      ['IBAN DE89 3704 0044 0532 0130 00', /bank_accounts\.account_number/],
      ['<td>cobadeffxxx</td>', /bank_accounts\.swift_bic/],
      ['Beneficiary: EXCHANGE LTD', /bank_accounts\.beneficiary/],
      ['Bank: Taunusanlage 12, 60325 Frankfurt', /bank_accounts\.bank_address/],
    ];
    for (const [text, column] of leaks)
      await expect(scanForRequisites(world.db.pool, [{ where: 'a test', text }])).rejects.toThrow(
        column,
      );
    await expect(
      scanForRequisites(world.db.pool, [`Order #${reference.slice(3)}: payment details are ready`]),
    ).resolves.toMatchObject({ messages: 1 });
  });

  it('never mailed a payment detail, with both kinds of details in the database', async () => {
    // Let every order event be delivered first (the mails of the last moves).
    await until(async () => {
      const { rows } = await world.db.pool.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM hdb_catalog.event_log
          WHERE trigger_name LIKE '%email' AND NOT delivered AND NOT error AND NOT archived`,
      );
      return rows[0]!.pending === 0 ? true : undefined;
    }, 'the e-mail events to be delivered');
    const report = await scanForRequisites(world.db.pool, world.mailbox.messages.map(mailContent));
    expect(report.messages).toBeGreaterThan(30);
    for (const column of [
      'transactions.deposit_address',
      'transactions.deposit_memo',
      'transactions.payment_reference',
      'bank_accounts.account_number',
      'bank_accounts.beneficiary',
      'bank_accounts.swift_bic',
      'bank_accounts.bank_address',
    ])
      expect(report.requisites[column] ?? 0, column).toBeGreaterThan(0);
  });
});
