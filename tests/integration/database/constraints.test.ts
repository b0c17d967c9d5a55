import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  migrateUp,
} from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { insertBankAccount, insertOrder, insertUser } from '../../support/fixtures.ts';
import { expectRefused, PG } from '../../support/pg-errors.ts';

describe.each(databaseTargets)('database rules on $name', (target) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await target.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
  });
  afterAll(async () => {
    await db.dispose();
  });

  describe('users', () => {
    it('refuses an e-mail that differs from an existing one only in case', async () => {
      await insertUser(db.pool, { email: 'Maria.Petrenko@example.com' });
      await expectRefused(
        insertUser(db.pool, { email: 'maria.petrenko@EXAMPLE.com' }),
        PG.uniqueViolation,
      );
    });

    it('allows several accounts without an e-mail (Telegram sign-ins)', async () => {
      await insertUser(db.pool, { email: null });
      await insertUser(db.pool, { email: null });
    });

    it('refuses a malformed e-mail', async () => {
      await expectRefused(insertUser(db.pool, { email: 'not-an-email' }), PG.checkViolation);
    });

    it.each([
      ['too short', 'ab'],
      ['too long', 'a'.repeat(21)],
      ['a space', 'my name'],
      ['punctuation', 'name_1'],
      ['non-Latin letters', 'тест123'],
    ])('refuses a referral name with %s', async (_, name) => {
      await expectRefused(
        insertUser(db.pool, { referral_name: name }),
        PG.checkViolation,
        /referral_name_format/,
      );
    });

    it('accepts a 3-20 alphanumeric referral name and keeps it unique regardless of case', async () => {
      await insertUser(db.pool, { referral_name: 'CryptoFan2026' });
      await insertUser(db.pool, { referral_name: 'abc' });
      await insertUser(db.pool, { referral_name: 'A'.repeat(20) });
      await expectRefused(
        insertUser(db.pool, { referral_name: 'cryptofan2026' }),
        PG.uniqueViolation,
      );
    });

    it('gives every new user a valid referral name by default', async () => {
      const id = await insertUser(db.pool);
      const { rows } = await db.pool.query<{ referral_name: string }>(
        'SELECT referral_name FROM portal_users WHERE id = $1',
        [id],
      );
      expect(rows[0]!.referral_name).toMatch(/^[A-Za-z0-9]{3,20}$/);
    });

    it('refuses a user as their own referrer', async () => {
      const id = await insertUser(db.pool);
      await expectRefused(
        db.pool.query('UPDATE portal_users SET referrer_id = id WHERE id = $1', [id]),
        PG.checkViolation,
      );
    });

    it('refuses an unknown staff role', async () => {
      const id = await insertUser(db.pool);
      await expectRefused(
        db.pool.query(`INSERT INTO roles (user_id, role_type) VALUES ($1, 'superuser')`, [id]),
        PG.checkViolation,
      );
    });
  });

  describe('transactions', () => {
    let userId: string;
    beforeAll(async () => {
      userId = await insertUser(db.pool);
    });

    it.each([
      ['a negative send amount', { send_amount: '-0.5' }],
      ['a zero receive amount', { receive_amount: '0' }],
      ['a negative rate', { rate: '-1' }],
      ['an unknown status', { status: 'refunded_twice' }],
      ['a status other than waiting_for_operator', { status: 'completed', payout_tx_id: 'abc' }],
      ['a direction that does not exist', { send_currency: 'BTC', receive_currency: 'BTC' }],
      ['both a wallet address and an IBAN', { iban: 'DE89370400440532013000' }],
      ['a malformed IBAN', { wallet_address: null, iban: 'not an iban' }],
      ['an empty full name', { full_name: '   ' }],
    ])('refuses an order with %s', async (_, overrides) => {
      const error = await insertOrder(db.pool, userId, overrides).then(
        () => undefined,
        (reason: { code?: string }) => reason,
      );
      expect(error?.code, 'the database accepted an invalid order').toMatch(/^23/);
    });

    it('keeps amounts exact to the last digit', async () => {
      const amount = '0.123456789012345678901234567890';
      const order = await insertOrder(db.pool, userId, { send_amount: amount });
      const { rows } = await db.pool.query<{ send_amount: string }>(
        'SELECT send_amount FROM transactions WHERE id = $1',
        [order.id],
      );
      expect(rows[0]!.send_amount).toBe(amount);
    });

    it('makes one order per idempotency key per user', async () => {
      await insertOrder(db.pool, userId, { idempotency_key: 'click-7f3a9c21' });
      await expectRefused(
        insertOrder(db.pool, userId, { idempotency_key: 'click-7f3a9c21' }),
        PG.uniqueViolation,
      );
    });

    it('walks the legal path and records each step in the history', async () => {
      const order = await insertOrder(db.pool, userId);
      const move = (set: string, params: unknown[] = []) =>
        db.pool.query(`UPDATE transactions SET ${set} WHERE id = $1`, [order.id, ...params]);
      await move(`status = 'waiting_for_payment', deposit_address = $2`, [
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      ]);
      await move(`status = 'paid'`);
      await move(`status = 'completed', payout_tx_id = $2`, [
        'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d',
      ]);

      const history = await db.pool.query<{ from_status: string | null; to_status: string }>(
        'SELECT from_status, to_status FROM transaction_status_history WHERE transaction_id = $1 ORDER BY id',
        [order.id],
      );
      expect(history.rows).toEqual([
        { from_status: null, to_status: 'waiting_for_operator' },
        { from_status: 'waiting_for_operator', to_status: 'waiting_for_payment' },
        { from_status: 'waiting_for_payment', to_status: 'paid' },
        { from_status: 'paid', to_status: 'completed' },
      ]);
      const { rows } = await db.pool.query(
        'SELECT requisites_at, paid_at, completed_at FROM transactions WHERE id = $1',
        [order.id],
      );
      expect(Object.values(rows[0] as object).every((value) => value instanceof Date)).toBe(true);
    });

    it.each([
      ['waiting_for_operator', 'paid'],
      ['waiting_for_operator', 'completed'],
    ])('refuses the jump from %s to %s', async (_, to) => {
      const order = await insertOrder(db.pool, userId);
      await expectRefused(
        db.pool.query(`UPDATE transactions SET status = $2, payout_tx_id = 'tx' WHERE id = $1`, [
          order.id,
          to,
        ]),
        PG.checkViolation,
        /cannot move/,
      );
    });

    it('refuses waiting for payment without requisites', async () => {
      const order = await insertOrder(db.pool, userId);
      await expectRefused(
        db.pool.query(`UPDATE transactions SET status = 'waiting_for_payment' WHERE id = $1`, [
          order.id,
        ]),
        PG.checkViolation,
      );
    });

    it('needs a unique payment reference with a bank account', async () => {
      const bankAccountId = await insertBankAccount(db.pool);
      const order = await insertOrder(db.pool, userId, {
        send_currency: 'EUR',
        receive_currency: 'BTC',
        send_amount: '500',
        receive_amount: '0.0049',
        rate: '0.0000098',
        wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      });
      const supply = (reference: string | null) =>
        db.pool.query(
          `UPDATE transactions SET status = 'waiting_for_payment', bank_account_id = $2, payment_reference = $3 WHERE id = $1`,
          [order.id, bankAccountId, reference],
        );
      await expectRefused(supply(null), PG.checkViolation);
      await supply(`EX-${order.number}`);
    });

    it('refuses completion without a payout tx id', async () => {
      const order = await insertOrder(db.pool, userId);
      await db.pool.query(
        `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' WHERE id = $1`,
        [order.id],
      );
      await db.pool.query(`UPDATE transactions SET status = 'paid' WHERE id = $1`, [order.id]);
      await expectRefused(
        db.pool.query(`UPDATE transactions SET status = 'completed' WHERE id = $1`, [order.id]),
        PG.checkViolation,
      );
    });

    it('treats canceled as final and needs to know who canceled', async () => {
      const order = await insertOrder(db.pool, userId);
      await expectRefused(
        db.pool.query(`UPDATE transactions SET status = 'canceled' WHERE id = $1`, [order.id]),
        PG.checkViolation,
      );
      await db.pool.query(
        `UPDATE transactions SET status = 'canceled', canceled_by = 'user' WHERE id = $1`,
        [order.id],
      );
      await expectRefused(
        db.pool.query(
          `UPDATE transactions SET status = 'waiting_for_operator', canceled_by = NULL WHERE id = $1`,
          [order.id],
        ),
        PG.checkViolation,
      );
      await expectRefused(
        db.pool.query(`UPDATE transactions SET reason = 'changed my mind' WHERE id = $1`, [
          order.id,
        ]),
        PG.checkViolation,
        /canceled/,
      );
    });

    it('never lets the terms of an order change', async () => {
      const order = await insertOrder(db.pool, userId);
      await expectRefused(
        db.pool.query(`UPDATE transactions SET receive_amount = receive_amount * 2 WHERE id = $1`, [
          order.id,
        ]),
        PG.checkViolation,
        /terms/,
      );
    });

    it('keeps the delivered requisites fixed once the user has seen them', async () => {
      const order = await insertOrder(db.pool, userId);
      await db.pool.query(
        `UPDATE transactions SET status = 'waiting_for_payment', deposit_address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' WHERE id = $1`,
        [order.id],
      );
      await expectRefused(
        db.pool.query(
          `UPDATE transactions SET deposit_address = 'bc1qattackerattackerattackerattacker00' WHERE id = $1`,
          [order.id],
        ),
        PG.checkViolation,
        /requisites/,
      );
    });
  });

  describe('support requests', () => {
    const request = (email: string, clientKey: string | null = null) =>
      db.pool.query(
        `INSERT INTO support_requests (name, email, order_id, message, client_key) VALUES ('Ivan', $1, '100001', 'Where is my payout?', $2)`,
        [email, clientKey],
      );

    it('refuses a second request from the same e-mail within a minute, with the spec message', async () => {
      await request('Support.Seeker@example.com');
      await expectRefused(
        request('support.seeker@example.com'),
        PG.checkViolation,
        'You have already submitted a request recently. Please try again in a minute.',
      );
    });

    it('refuses a second request from the same client under another e-mail', async () => {
      await request('first@example.com', 'client-203.0.113.7');
      await expectRefused(request('second@example.com', 'client-203.0.113.7'), PG.checkViolation);
    });

    it('accepts a request once the minute has passed', async () => {
      await request('patient@example.com');
      await db.pool.query(
        `UPDATE support_requests SET created_at = now() - interval '61 seconds' WHERE email = 'patient@example.com'`,
      );
      await request('patient@example.com');
    });

    it('refuses an empty message', async () => {
      await expectRefused(
        db.pool.query(
          `INSERT INTO support_requests (email, message) VALUES ('quiet@example.com', '  ')`,
        ),
        PG.checkViolation,
      );
    });
  });

  describe('affiliate withdrawals', () => {
    async function referrerWithBonus(amount: string): Promise<string> {
      const referrer = await insertUser(db.pool);
      const referral = await insertUser(db.pool, { referrer_id: referrer });
      const order = await insertOrder(db.pool, referral);
      await db.pool.query(
        `INSERT INTO referral_bonuses (referrer_id, referral_id, transaction_id, order_amount_usdt, accrual_rate, amount_usdt)
         VALUES ($1, $2, $3, 100000, 0.005, $4)`,
        [referrer, referral, order.id, amount],
      );
      return referrer;
    }
    const withdraw = (userId: string, amount: string) =>
      db.pool.query(
        `INSERT INTO bonus_withdrawals (user_id, amount_usdt, wallet_address) VALUES ($1, $2, 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')`,
        [userId, amount],
      );

    it('refuses less than the 100 USDT minimum', async () => {
      const referrer = await referrerWithBonus('500');
      await expectRefused(withdraw(referrer, '99.99'), PG.checkViolation, /minimum/);
    });

    it('refuses more than the available balance, counting earlier withdrawals', async () => {
      const referrer = await referrerWithBonus('150');
      await withdraw(referrer, '100');
      await expectRefused(withdraw(referrer, '100'), PG.checkViolation, /exceeds/);
    });

    it('returns a rejected withdrawal to the balance', async () => {
      const referrer = await referrerWithBonus('120');
      await withdraw(referrer, '120');
      await db.pool.query(`UPDATE bonus_withdrawals SET status = 'rejected' WHERE user_id = $1`, [
        referrer,
      ]);
      await withdraw(referrer, '120');
    });

    it('lets exactly one of 20 concurrent withdrawals through on a 100 USDT balance', async () => {
      const referrer = await referrerWithBonus('100');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () => withdraw(referrer, '100')),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const { rows } = await db.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM bonus_withdrawals WHERE user_id = $1',
        [referrer],
      );
      expect(rows[0]!.n).toBe(1);
    });
  });

  describe('currencies and directions', () => {
    it('refuses a crypto currency without a network', async () => {
      await expectRefused(
        db.pool.query(
          `INSERT INTO currencies (code, symbol, name, kind, precision, min_amount, max_amount) VALUES ('NONET', 'NON', 'No network', 'crypto', 8, 1, 2)`,
        ),
        PG.checkViolation,
      );
    });

    it('refuses a maximum below the minimum', async () => {
      await expectRefused(
        db.pool.query(
          `INSERT INTO currencies (code, symbol, name, kind, precision, min_amount, max_amount) VALUES ('BADEUR', 'EUR', 'Bad', 'fiat', 2, 100, 10)`,
        ),
        PG.checkViolation,
      );
    });

    it('refuses a half-defined daily window', async () => {
      await expectRefused(
        db.pool.query(
          `UPDATE exchange_directions SET window_start = '09:00' WHERE from_currency = 'BTC' AND to_currency = 'XMR'`,
        ),
        PG.checkViolation,
      );
    });

    it('gives each direction a readable slug for its route', async () => {
      const { rows } = await db.pool.query<{ slug: string }>(
        `SELECT slug FROM exchange_directions WHERE from_currency = 'BTC' AND to_currency = 'XMR'`,
      );
      expect(rows[0]!.slug).toBe('btc-to-xmr');
    });
  });
});
