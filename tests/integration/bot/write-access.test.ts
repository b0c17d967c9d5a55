import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { insertUser } from '../../support/fixtures.ts';

import { event, useBotWorld } from './bot-world.ts';
import { telegramUser } from './harness.ts';

/*
 * Write access for someone who opened the mini-app from a link and never pressed Start
 * (issue 22, decision 039): Telegram refuses the bot's first message to them, until they allow
 * the mini-app's request; Telegram then tells the bot with a write_access_allowed service
 * message, which the bot records, and the order's next news reaches the chat.
 */

describe.each(databaseTargets)('write access on $name', (target) => {
  const world = useBotWorld(target);

  it('records write_access_allowed, after which the order’s notification is delivered', async () => {
    const user = telegramUser('en', 'Mykola');
    // An account from the mini-app's sign-in: linked to Telegram, but the bot never started.
    const id = await insertUser(world.db.pool);
    await world.db.pool.query('UPDATE portal_users SET telegram_id = $2 WHERE id = $1', [
      id,
      user.id,
    ]);
    const order = await world.orderIn(id, 'paid');
    const paid = event(
      'order_status_bot',
      { id: order.id, status: 'paid' },
      { id: order.id, status: 'waiting_for_payment' },
    );
    await world.service.postEvent(paid);
    await world.service.settled();
    // Telegram refused (403): nothing reached the chat.
    expect(world.service.emulator.chatMessages(user.id)).toEqual([]);

    world.service.emulator.userAllowsWriteAccess(user);
    const recorded = async () =>
      (
        await world.db.pool.query<{ source: string }>(
          'SELECT source FROM bot.write_access WHERE telegram_id = $1',
          [user.id],
        )
      ).rows;
    await expect.poll(recorded, { timeout: 10_000 }).toEqual([{ source: 'write_access_allowed' }]);

    await world.db.pool.query(
      `UPDATE transactions SET status = 'completed', payout_tx_id = 'tx-1' WHERE id = $1`,
      [order.id],
    );
    await world.service.postEvent(
      event(
        'order_status_bot',
        { id: order.id, status: 'completed' },
        { id: order.id, status: 'paid' },
      ),
    );
    const [message, ...more] = await world.service.botMessages(user.id, 1);
    expect(message!.text).toContain(`№${order.number}`);
    // The service message got no reply: the one bot message is the notification.
    expect(more).toEqual([]);
  });
});
