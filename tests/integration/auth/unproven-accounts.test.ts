import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { createUser, PASSWORD } from './harness.ts';
import { startProductStack, type ProductStack, type Tokens } from './product-stack.ts';

/*
 * Issue 19, point 3 (decision 016): an e-mail address could be claimed before its owner
 * arrived. Quick-auth (and /register) on an unknown address give a session at once, and with
 * it someone set the anti-phishing phrase, the referral name and the referrer; the owner's
 * later proof of the address (a code, a reset link) left all of it, and the squatter's access
 * token kept working. Point 7c: /register said "already in use" where /quick-auth answered
 * with a code challenge.
 */

const SET_PHRASE = `mutation ($id: uuid!, $value: String!) {
  update_portal_users_by_pk(pk_columns: { id: $id }, _set: { anti_phishing_phrase: $value }) {
    id
  }
}`;
const SET_REFERRAL_NAME = `mutation ($id: uuid!, $value: String!) {
  update_portal_users_by_pk(pk_columns: { id: $id }, _set: { referral_name: $value }) { id }
}`;
const ME = `query ($id: uuid!) {
  portal_users_by_pk(id: $id) { anti_phishing_phrase referral_name }
  transactions { id }
}`;

const NEW_PASSWORD = 'Owner-chosen-pass-77';

const userIdOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { userId: string })
    .userId;

describe.each(databaseTargets)('unproven accounts on $name', (target) => {
  let product: ProductStack;

  beforeAll(async () => {
    product = await startProductStack(target);
  });
  afterAll(async () => {
    await product?.close();
  });

  const account = async (email: string) =>
    (
      await product.db.pool.query<{
        id: string;
        anti_phishing_phrase: string | null;
        referral_name: string;
        referrer_id: string | null;
        is_2fa: boolean;
        is_verified_email: boolean;
      }>(
        `SELECT id, anti_phishing_phrase, referral_name, referrer_id, is_2fa, is_verified_email
           FROM portal_users WHERE email = $1`,
        [email],
      )
    ).rows[0]!;

  it('security regression: an unproven account may not set the anti-phishing phrase, the referral name or two-factor sign-in', async () => {
    const session = await product.tokens('/quick-auth', { email: 'early@example.com' });
    const id = userIdOf(session.accessToken);

    const phrase = await product.graphql(session.accessToken, SET_PHRASE, {
      id,
      value: 'Verify at evil.example',
    });
    expect(phrase.errors?.[0]?.message).toMatch(/email-not-confirmed/);
    const name = await product.graphql(session.accessToken, SET_REFERRAL_NAME, {
      id,
      value: 'EarlyBird',
    });
    expect(name.errors?.[0]?.message).toMatch(/email-not-confirmed/);
    // Whoever writes: the rule is the database's.
    await expect(
      product.db.pool.query('UPDATE portal_users SET is_2fa = true WHERE id = $1', [id]),
    ).rejects.toThrow(/email-not-confirmed/);

    const row = await account('early@example.com');
    expect(row.anti_phishing_phrase).toBeNull();
    expect(row.referral_name).not.toBe('EarlyBird');
    expect(row.is_2fa).toBe(false);
  });

  describe.each([
    {
      proof: 'a quick-auth code',
      prove: (product: ProductStack, email: string): Promise<Tokens> => product.proveByCode(email),
    },
    {
      proof: 'a reset link',
      prove: async (product: ProductStack, email: string): Promise<Tokens> => {
        expect((await product.auth.post('/reset_password', { email })).status).toBe(200);
        const mail = await product.mailbox.waitFor(email, (m) =>
          /change-password/.test(m.text ?? ''),
        );
        const token = /\/change-password\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1];
        const changed = await product.auth.post('/change-password', {
          token,
          password: NEW_PASSWORD,
          confirmPassword: NEW_PASSWORD,
        });
        expect(changed.status).toBe(200);
        return product.tokens('/login', { email, password: NEW_PASSWORD });
      },
    },
  ])('proven by $proof', ({ proof, prove }) => {
    it('security regression: the owner proving the address leaves the squatter nothing', async () => {
      const email = `victim-${proof.length}@example.com`;
      const attacker = await createUser(product.db, {
        email: `attacker-${proof.length}@example.com`,
        password: PASSWORD,
        referralName: `Attacker${proof.length}`,
      });
      // The squatter claims the address first, referred by themselves, and plants what they can.
      const squatter = await product.tokens('/quick-auth', {
        email,
        referralCode: `Attacker${proof.length}`,
      });
      const id = userIdOf(squatter.accessToken);
      await product.graphql(squatter.accessToken, SET_PHRASE, {
        id,
        value: 'Verify at evil.example',
      });
      await product.graphql(squatter.accessToken, SET_REFERRAL_NAME, { id, value: 'VictimBrand' });
      expect((await product.createOrder(squatter.accessToken, email)).errors).toBeUndefined();

      const owner = await prove(product, email);
      expect(userIdOf(owner.accessToken)).toBe(id);

      const proven = await account(email);
      expect(proven.is_verified_email).toBe(true);
      expect(proven.anti_phishing_phrase).toBeNull();
      expect(proven.referral_name.toLowerCase()).not.toBe('victimbrand');
      expect(proven.referrer_id).not.toBe(attacker);
      expect(proven.referrer_id).toBeNull();
      expect(proven.is_2fa).toBe(false);

      // The owner sets their phrase and orders.
      const mine = await product.graphql(owner.accessToken, SET_PHRASE, {
        id,
        value: 'Blue parrot 77',
      });
      expect(mine.errors).toBeUndefined();
      const order = await product.createOrder(owner.accessToken, email);
      expect(order.errors).toBeUndefined();
      const orderId = (order.data?.['createExchange'] as { id: string }).id;

      // The squatter's session is over: no refresh, nothing to read, nothing to change.
      expect(
        (await product.auth.post('/refresh_tokens', { refreshToken: squatter.refreshToken }))
          .status,
      ).toBe(401);
      const seen = await product.graphql(squatter.accessToken, ME, { id });
      expect(seen.data).toEqual({ portal_users_by_pk: null, transactions: [] });
      expect(JSON.stringify(seen)).not.toContain('Blue parrot 77');
      expect(JSON.stringify(seen)).not.toContain(orderId);
      await product.graphql(squatter.accessToken, SET_PHRASE, {
        id,
        value: 'Verify at evil.example',
      });
      expect((await account(email)).anti_phishing_phrase).toBe('Blue parrot 77');
      const late = await product.createOrder(squatter.accessToken, email);
      expect(late.errors?.[0]?.extensions['code']).toBe('invalid-jwt');
    });
  });

  it('security regression: a password chosen before the address was proven does not survive the owner proving it', async () => {
    const email = 'prehijack@example.com';
    const squatter = await product.auth.post('/register', {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(squatter.status).toBe(200);
    await product.proveByCode(email);
    const again = await product.auth.post('/login', { email, password: PASSWORD });
    expect(again.status).toBe(401);
    expect(again.body['accessToken']).toBeUndefined();
  });

  /** Signs up with a password, then proves the address by code from that very session. */
  async function signUpAndProveOwnAddress(email: string) {
    const signedUp = await product.tokens('/register', {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    const proven = await product.proveByCode(email, {
      authorization: `Bearer ${signedUp.accessToken}`,
    });
    return { signedUp, proven };
  }

  it('keeps the password of an account that proves its address from its own session', async () => {
    const email = 'signed-up@example.com';
    const { signedUp, proven } = await signUpAndProveOwnAddress(email);
    expect((await account(email)).is_verified_email).toBe(true);
    // A fresh session after the proof; the one from before it ended with it.
    expect(
      (await product.auth.post('/refresh_tokens', { refreshToken: signedUp.refreshToken })).status,
    ).toBe(401);
    expect(
      (await product.auth.post('/refresh_tokens', { refreshToken: proven.refreshToken })).status,
    ).toBe(200);
    const login = await product.auth.post('/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body['accessToken']).toEqual(expect.any(String));
  });

  it('a sign-in code right after proving the address from its own session is not held back by the resend cooldown', async () => {
    // Proving from its own session used the sign-in purpose, so the next 60 s refused a
    // two-factor sign-in with 429: the proof's code, used up, still counted as the last one sent.
    const email = 'prove-then-sign-in@example.com';
    const { proven } = await signUpAndProveOwnAddress(email);
    const turnedOn = await product.auth.post(
      '/two-factor',
      { enabled: true, password: PASSWORD },
      { authorization: `Bearer ${proven.accessToken}` },
    );
    expect(turnedOn.status).toBe(200);
    const login = await product.auth.post('/login', { email, password: PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body['is2fa']).toBe(true);
  });

  it('security regression: /register and /quick-auth answer a known address alike, and a new one alike', async () => {
    const email = 'known@example.com';
    await createUser(product.db, { email, password: PASSWORD });
    const viaRegister = await product.auth.post('/register', {
      email,
      password: 'Someone-else-99',
      confirmPassword: 'Someone-else-99',
    });
    const viaQuickAuth = await product.auth.post('/quick-auth', { email });
    for (const reply of [viaRegister, viaQuickAuth]) {
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body).sort()).toEqual(['is2fa', 'token']);
      expect(reply.body['is2fa']).toBe(true);
    }
    // The /register password was not applied; the owner's still signs in.
    expect((await product.auth.post('/login', { email, password: 'Someone-else-99' })).status).toBe(
      401,
    );
    expect((await product.auth.post('/login', { email, password: PASSWORD })).status).toBe(200);

    const fresh = [
      await product.auth.post('/register', {
        email: 'fresh-1@example.com',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      await product.auth.post('/quick-auth', { email: 'fresh-2@example.com' }),
    ];
    for (const reply of fresh) {
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body).sort()).toEqual(['accessToken', 'is2fa', 'refreshToken']);
    }
  });
});
