import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets } from '../../support/databases.ts';

import { event, useBotWorld } from './bot-world.ts';
import { buttonsOf, MINIAPP_URL, STAFF_CHAT } from './harness.ts';

/*
 * The bot's messages about payments a chain watcher saw (issue 25, decision 053): the order's
 * owner hears once that a payment was seen, with its confirmations; the staff chats hear of a
 * confirmed payment that moved no order. Events are posted as the engine posts them; the
 * payment rows are written as the watcher and the actions service write them.
 */

const tx = () => randomBytes(32).toString('hex');

describe.each(databaseTargets)('chain payment messages on $name', (target) => {
  const world = useBotWorld(target);

  async function payment(options: {
    orderId: string | null;
    amount: string;
    confirmations?: number;
    outcome?: string;
  }) {
    const confirmed = options.outcome !== undefined;
    const { rows } = await world.db.pool.query<{ id: string; tx_hash: string }>(
      `INSERT INTO chain_payments (network, tx_hash, output_index, currency_code, to_address, amount,
                                   block_number, block_hash, confirmations, confirmations_required,
                                   state, transaction_id, outcome, applied_at, confirmed_at)
       VALUES ('BTC', $1, 0, 'BTC', 'bc1qsomeoneelse000000000', $2, 100, $3, $4, 2, $5, $6, $7,
               CASE WHEN $7::text IS NULL THEN NULL ELSE now() END,
               CASE WHEN $5 = 'confirmed' THEN now() END)
       RETURNING id, tx_hash`,
      [
        tx(),
        options.amount,
        tx(),
        options.confirmations ?? (confirmed ? 2 : 1),
        confirmed ? 'confirmed' : 'seen',
        options.orderId,
        options.outcome ?? null,
      ],
    );
    return rows[0]!;
  }

  it("tells an order's owner once that the payment was seen, in their language", async () => {
    const { user, id } = await world.linkedAccount('uk', 'ua');
    const order = await world.orderIn(id, 'waiting_for_payment');
    const seen = await payment({ orderId: order.id, amount: '0.01' });
    const delivery = event('chain_payment_seen_bot', { id: seen.id, state: 'seen' });
    expect((await world.service.postEvent(delivery)).body).toEqual({ status: 'queued' });
    expect((await world.service.postEvent(delivery)).body).toEqual({ status: 'already-handled' });
    await world.service.settled();
    const [message, ...more] = await world.service.botMessages(user.id, 1);
    expect(more).toEqual([]);
    expect(message!.text).toBe(
      botCatalogs.ua.chain.seen
        .replace('{{number}}', order.number)
        .replace('{{amount}}', '0.01 BTC')
        .replace('{{confirmations}}', '1')
        .replace('{{required}}', '2'),
    );
    expect(buttonsOf(message!)).toEqual([
      {
        text: botCatalogs.ua.status.open,
        web_app: { url: `${MINIAPP_URL}?startapp=order_${order.id}` },
      },
    ]);
  });

  it('says nothing of a payment to an order that no longer waits, or one already gone', async () => {
    const { user, id } = await world.linkedAccount();
    const paid = await world.orderIn(id, 'paid');
    const late = await payment({ orderId: paid.id, amount: '0.01' });
    await world.service.postEvent(event('chain_payment_seen_bot', { id: late.id, state: 'seen' }));
    const waiting = await world.orderIn(id, 'waiting_for_payment');
    const gone = await payment({ orderId: waiting.id, amount: '0.01' });
    await world.db.pool.query(
      `UPDATE chain_payments SET state = 'dropped', block_number = NULL, block_hash = NULL WHERE id = $1`,
      [gone.id],
    );
    await world.service.postEvent(event('chain_payment_seen_bot', { id: gone.id, state: 'seen' }));
    await world.service.settled();
    expect(world.service.emulator.chatMessages(user.id)).toEqual([]);
  });

  it('tells the staff chats of a confirmed payment that moved no order, once', async () => {
    const { id } = await world.linkedAccount();
    const finished = await world.orderIn(id, 'completed');
    const stray = await payment({
      orderId: finished.id,
      amount: '0.02',
      outcome: 'order_not_waiting',
    });
    const orphan = await payment({ orderId: null, amount: '0.03', outcome: 'no_order' });
    const moved = await payment({
      orderId: (await world.orderIn(id, 'paid')).id,
      amount: '0.01',
      outcome: 'paid',
    });
    const before = world.service.emulator.chatMessages(STAFF_CHAT).length;
    for (const row of [stray, orphan, moved]) {
      const { rows } = await world.db.pool.query<{ outcome: string }>(
        'SELECT outcome FROM chain_payments WHERE id = $1',
        [row.id],
      );
      const answer = await world.service.postEvent(
        event(
          'chain_payment_flag_bot',
          { id: row.id, outcome: rows[0]!.outcome },
          { id: row.id, outcome: null },
        ),
      );
      expect(answer.status).toBe(200);
    }
    // A later change of a recorded outcome is not a new flag.
    expect(
      (
        await world.service.postEvent(
          event(
            'chain_payment_flag_bot',
            { id: stray.id, outcome: 'order_not_waiting' },
            { id: stray.id, outcome: 'order_not_waiting' },
          ),
        )
      ).body,
    ).toEqual({ status: 'nothing-to-send' });
    await world.service.settled();
    const staff = world.service.emulator.chatMessages(STAFF_CHAT).slice(before);
    expect(staff.map((message) => message.text)).toEqual([
      botCatalogs.en.staff.chainUnexpected
        .replace('{{amount}}', '0.02 BTC')
        .replace('{{network}}', 'BTC')
        .replace('{{number}}', finished.number)
        .replace('{{status}}', 'Completed')
        .replace('{{tx}}', stray.tx_hash),
      botCatalogs.en.staff.chainNoOrder
        .replace('{{amount}}', '0.03 BTC')
        .replace('{{network}}', 'BTC')
        .replace('{{tx}}', orphan.tx_hash),
    ]);
    expect(buttonsOf(staff[0]!)).toEqual([
      {
        text: botCatalogs.en.staff.openConsole,
        url: `https://exchange.test/admin/transactions?order=${finished.id}`,
      },
    ]);
  });
});
