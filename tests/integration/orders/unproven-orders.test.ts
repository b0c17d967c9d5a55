import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  UNPROVEN_MAX_OPEN_ORDERS,
  UNPROVEN_MAX_ORDERS_PER_HOUR,
} from '@app/actions/orders/unproven-limits';

import { databaseTargets } from '../../support/databases.ts';
import { createUser, PASSWORD } from '../auth/harness.ts';
import { startProductStack, type ProductStack } from '../auth/product-stack.ts';

/*
 * Issue 19, point 4 (decision 016): the order e-mail was an open relay. The "order created"
 * mail went to the order form's free-text e-mail, greeting the form's full name, with no
 * limit: from one unproven account, 25 phishing mails reached strangers in 3 s, each order
 * also landing in the operators' queue. Now order mail goes only to the account's proven
 * address, greets nobody by the form's name, and an unproven account has a few orders only.
 */

const CANCEL = `mutation ($id: uuid!) { cancelExchange(transactionId: $id) { id status } }`;

/** Waits until the engine has delivered every event trigger of every order so far. */
async function eventsSettled(product: ProductStack): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { rows } = await product.db.pool.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM hdb_catalog.event_log
        WHERE trigger_name LIKE 'order_%email' AND NOT delivered AND NOT error AND NOT archived`,
    );
    if (rows[0]!.pending === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.pending} events still undelivered`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(databaseTargets)('orders of unproven accounts on $name', (target) => {
  let product: ProductStack;

  beforeAll(async () => {
    product = await startProductStack(target);
  });
  afterAll(async () => {
    await product?.close();
  });

  it('security regression: of 25 orders from one unproven account only the allowed few are made, and no mail reaches the address typed in the form', async () => {
    const session = await product.tokens('/quick-auth', { email: 'sender@example.com' });
    const stranger = 'stranger@example.com';
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => product.createOrder(session.accessToken, stranger)),
    );
    const made = answers.filter((answer) => answer.data?.['createExchange']);
    const refused = answers.filter((answer) => answer.errors);
    expect(made).toHaveLength(UNPROVEN_MAX_OPEN_ORDERS);
    expect(refused).toHaveLength(25 - UNPROVEN_MAX_OPEN_ORDERS);
    for (const answer of refused) {
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'unconfirmed-order-limit',
        maxOpen: UNPROVEN_MAX_OPEN_ORDERS,
        maxPerHour: UNPROVEN_MAX_ORDERS_PER_HOUR,
      });
    }
    const { rows } = await product.db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM transactions t JOIN portal_users u ON u.id = t.user_id
        WHERE u.email = 'sender@example.com'`,
    );
    expect(rows[0]!.count).toBe(UNPROVEN_MAX_OPEN_ORDERS);

    // Finished orders free the open slots, but not the hour's.
    for (const answer of made) {
      const id = (answer.data!['createExchange'] as { id: string }).id;
      const canceled = await product.graphql(session.accessToken, CANCEL, { id });
      expect(canceled.errors).toBeUndefined();
    }
    const more = [];
    for (let i = 0; i < 3; i += 1)
      more.push(await product.createOrder(session.accessToken, stranger));
    expect(more.filter((answer) => answer.data?.['createExchange'])).toHaveLength(
      UNPROVEN_MAX_ORDERS_PER_HOUR - UNPROVEN_MAX_OPEN_ORDERS,
    );
    expect(
      (await product.createOrder(session.accessToken, stranger)).errors?.[0]?.extensions['code'],
    ).toBe('unconfirmed-order-limit');

    await eventsSettled(product);
    expect(product.mailbox.to(stranger)).toEqual([]);
    // Nor to the account's own address, which nobody has proven.
    expect(product.mailbox.to('sender@example.com')).toEqual([]);
  });

  it("security regression: order mail goes to the account's proven address only, and greets nobody by the form's name", async () => {
    const email = 'proven@example.com';
    await createUser(product.db, { email, password: PASSWORD, verified: true });
    const session = await product.tokens('/login', { email, password: PASSWORD });
    const stranger = 'someone-else@example.com';
    const orders = [];
    for (let i = 0; i < UNPROVEN_MAX_ORDERS_PER_HOUR + 1; i += 1) {
      const answer = await product.createOrder(session.accessToken, stranger);
      expect(answer.errors).toBeUndefined();
      orders.push(answer);
    }
    const mail = await product.mailbox.waitFor(email, (m) => /created/i.test(m.subject ?? ''));
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html || '').not.toContain('evil.example');
    await eventsSettled(product);
    expect(product.mailbox.to(email)).toHaveLength(orders.length);
    expect(product.mailbox.to(stranger)).toEqual([]);
  });

  it('repeats an order of an unproven account by its idempotency key, whatever the limits', async () => {
    const session = await product.tokens('/quick-auth', { email: 'repeat@example.com' });
    const key = randomUUID();
    const first = await product.createOrder(session.accessToken, 'repeat@example.com', key);
    const id = (first.data?.['createExchange'] as { id: string }).id;
    await product.createOrder(session.accessToken, 'repeat@example.com');
    const again = await product.createOrder(session.accessToken, 'repeat@example.com', key);
    expect(again.errors).toBeUndefined();
    expect((again.data?.['createExchange'] as { id: string }).id).toBe(id);
  });
});
