import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { createUser, PASSWORD } from './harness.ts';
import { startProductStack, type ProductStack } from './product-stack.ts';

/*
 * Issue 19, point 7b (decision 016): access tokens outlived logout, reset and revocation, and
 * a disabled account kept creating orders until its token expired (Hasura checks only the
 * signature and expiry; the actions never looked at the account). Now every action checks the
 * account and the token's session, and the user's permissions compare the token's session
 * epoch with the account's.
 */

const MY_ORDERS = `query { transactions { id } }`;

describe.each(databaseTargets)('revoked sessions on $name', (target) => {
  let product: ProductStack;

  beforeAll(async () => {
    product = await startProductStack(target);
  });
  afterAll(async () => {
    await product?.close();
  });

  async function customer(email: string) {
    const id = await createUser(product.db, { email, password: PASSWORD, verified: true });
    const session = await product.tokens('/login', { email, password: PASSWORD });
    expect((await product.createOrder(session.accessToken, email)).errors).toBeUndefined();
    return { id, session };
  }

  const ordersOf = async (id: string) =>
    (
      await product.db.pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM transactions WHERE user_id = $1',
        [id],
      )
    ).rows[0]!.count;

  it("security regression: a disabled account's next order is refused at once, with a clear error", async () => {
    const { id, session } = await customer('disabled@example.com');
    await product.db.pool.query('UPDATE portal_users SET is_disabled = true WHERE id = $1', [id]);
    const refused = await product.createOrder(session.accessToken, 'disabled@example.com');
    expect(refused.errors?.[0]).toMatchObject({
      message: 'This account is disabled.',
      extensions: { code: 'user-disabled' },
    });
    expect(await ordersOf(id)).toBe(1);
    expect((await product.graphql(session.accessToken, MY_ORDERS)).data).toEqual({
      transactions: [],
    });
    expect(
      (await product.auth.post('/refresh_tokens', { refreshToken: session.refreshToken })).status,
    ).toBe(401);
  });

  it('security regression: after a password reset the old access token creates no order and reads nothing', async () => {
    const email = 'reset@example.com';
    const { id, session } = await customer(email);
    expect((await product.auth.post('/reset_password', { email })).status).toBe(200);
    const mail = await product.mailbox.waitFor(email, (m) => /change-password/.test(m.text ?? ''));
    const token = /\/change-password\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1];
    const changed = await product.auth.post('/change-password', {
      token,
      password: 'A-new-password-55',
      confirmPassword: 'A-new-password-55',
    });
    expect(changed.status).toBe(200);

    const refused = await product.createOrder(session.accessToken, email);
    expect(refused.errors?.[0]?.extensions['code']).toBe('invalid-jwt');
    expect(await ordersOf(id)).toBe(1);
    expect((await product.graphql(session.accessToken, MY_ORDERS)).data).toEqual({
      transactions: [],
    });
    // The new sign-in works.
    const fresh = await product.tokens('/login', { email, password: 'A-new-password-55' });
    expect((await product.createOrder(fresh.accessToken, email)).errors).toBeUndefined();
    expect(
      (await product.graphql(fresh.accessToken, MY_ORDERS)).data?.['transactions'],
    ).toHaveLength(2);
  });

  it('security regression: after logging out everywhere no earlier access token creates an order or reads', async () => {
    const email = 'everywhere@example.com';
    const { id, session: phone } = await customer(email);
    const laptop = await product.tokens('/login', { email, password: PASSWORD });
    const out = await product.auth.post('/logout', {
      refreshToken: laptop.refreshToken,
      all: true,
    });
    expect(out.status).toBe(200);
    for (const session of [phone, laptop]) {
      const refused = await product.createOrder(session.accessToken, email);
      expect(refused.errors?.[0]?.extensions['code']).toBe('invalid-jwt');
      expect((await product.graphql(session.accessToken, MY_ORDERS)).data).toEqual({
        transactions: [],
      });
      expect(
        (await product.auth.post('/refresh_tokens', { refreshToken: session.refreshToken })).status,
      ).toBe(401);
    }
    expect(await ordersOf(id)).toBe(1);
  });

  it("security regression: a logged-out session's access token creates no order, and the other sessions go on", async () => {
    const email = 'one-device@example.com';
    const { id, session: phone } = await customer(email);
    const laptop = await product.tokens('/login', { email, password: PASSWORD });
    expect((await product.auth.post('/logout', { refreshToken: laptop.refreshToken })).status).toBe(
      200,
    );
    const refused = await product.createOrder(laptop.accessToken, email);
    expect(refused.errors?.[0]?.extensions['code']).toBe('invalid-jwt');
    expect((await product.createOrder(phone.accessToken, email)).errors).toBeUndefined();
    expect(await ordersOf(id)).toBe(2);
  });

  it('refuses a logout everywhere with a used-up refresh token, ending only its own sign-in', async () => {
    const email = 'old-token@example.com';
    const { session: phone } = await customer(email);
    const laptop = await product.tokens('/login', { email, password: PASSWORD });
    const rotated = await product.auth.post('/refresh_tokens', {
      refreshToken: laptop.refreshToken,
    });
    expect(rotated.status).toBe(200);
    // Past the reuse grace the old token is a replay; "everywhere" with it ends nothing else.
    await product.db.pool.query(
      `UPDATE auth.refresh_tokens SET rotated_at = now() - interval '1 minute'
        WHERE rotated_at IS NOT NULL`,
    );
    await product.auth.post('/logout', { refreshToken: laptop.refreshToken, all: true });
    expect((await product.createOrder(phone.accessToken, email)).errors).toBeUndefined();
  });
});
