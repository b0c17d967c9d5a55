import { randomUUID } from 'node:crypto';

import type pg from 'pg';

import { seedChainPayments } from './seed-chain.ts';

/*
 * Rows that make a leak observable. The role `user` acts as one ordinary user (`user`); a
 * stranger, the user's referral, the user's referrer (the stranger's referral) and a
 * disabled account own rows in every user-owned table; staff own rows too (a custom rate
 * for the manager, feedback they sent, requests they handled). Two currencies and one
 * direction are disabled, so that the public filters (`enabled`) have something to hide, and
 * the user's own orders point at hidden rows (a disabled currency, a bank account paid by the
 * stranger only, a direction nobody may see). Every secret-looking value of another account
 * is distinct and searchable (`stranger-secret-…`), so a yes/no question about it has an
 * answer that differs from the admitted rows'.
 *
 * Inserted as the database owner with triggers and foreign-key checks off
 * (session_replication_role = replica): the product's triggers would refuse orders that do
 * not start at the beginning of their life, and the engine's event triggers would send mail.
 */

export interface OracleIds {
  user: string;
  manager: string;
  administrator: string;
  stranger: string;
  referral: string;
  referrer: string;
  disabled: string;
}

export async function seedOracleData(
  pool: pg.Pool,
  base: { user: string; manager: string; administrator: string },
): Promise<OracleIds> {
  const ids: OracleIds = {
    ...base,
    stranger: randomUUID(),
    referral: randomUUID(),
    referrer: randomUUID(),
    disabled: randomUUID(),
  };
  const u = ids.user;
  const s = ids.stranger;
  const c = ids.referral;
  const p = ids.referrer;
  const d = ids.disabled;
  const m = ids.manager;
  const a = ids.administrator;
  const tx = Object.fromEntries(
    ['u1', 'u2', 'u3', 'u4', 's1', 's2', 's3', 'c1', 'c2', 'p1', 'm1', 'd1'].map((key) => [
      key,
      randomUUID(),
    ]),
  ) as Record<string, string>;
  const bank = { b1: randomUUID(), b2: randomUUID(), b3: randomUUID(), b4: randomUUID() };
  const support = { u: randomUUID(), s: randomUUID(), anon: randomUUID() };

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    // Accounts.
    await client.query(
      `UPDATE public.portal_users SET anti_phishing_phrase = $2, telegram_username = 'user_tg',
              telegram_id = 7001, referral_name = 'useralpha', locale = 'ru', is_2fa = true,
              is_verified_email = true, status = 'bronze', created_at = '2026-01-02T10:00:00Z'
        WHERE id = $1`,
      [u, 'user own phrase'],
    );
    await client.query(
      `UPDATE public.portal_users SET anti_phishing_phrase = 'manager-secret-phrase',
              referral_name = 'managerbeta', created_at = '2026-01-01T09:00:00Z' WHERE id = $1`,
      [m],
    );
    await client.query(
      `UPDATE public.portal_users SET anti_phishing_phrase = 'admin-secret-phrase',
              referral_name = 'admingamma', created_at = '2026-01-01T08:00:00Z' WHERE id = $1`,
      [a],
    );
    await client.query(
      `INSERT INTO public.portal_users
         (id, email, is_verified_email, created_at, status, is_2fa, is_disabled, password_hash,
          telegram_id, telegram_username, referrer_id, referral_name, locale, anti_phishing_phrase)
       VALUES
         ($1, 'stranger-secret-mail@example.net', true, '2026-01-01T12:00:00Z', 'gold', true, false,
          '$argon2id$v=19$stranger-hash', 7002, 'stranger_tg', NULL, 'strangerdelta', 'ua',
          'stranger-secret-phrase'),
         ($2, 'referrer-secret@example.org', false, '2026-01-01T13:00:00Z', 'new', false, false,
          NULL, NULL, 'referrer_tg', $1, 'referrerepsilon', 'en', 'referrer-secret-phrase'),
         ($3, 'referral-secret@example.com', true, '2026-01-03T14:00:00Z', 'silver', false, false,
          NULL, 7003, NULL, $4, 'referralzeta', 'en', 'referral-secret-phrase'),
         ($5, 'disabled-secret@example.com', true, '2026-01-04T15:00:00Z', 'blocked', false, true,
          NULL, NULL, NULL, NULL, 'disabledeta', 'en', NULL)`,
      [s, p, c, u, d],
    );
    await client.query(`UPDATE public.portal_users SET referrer_id = $2 WHERE id = $1`, [u, p]);

    // Hidden catalogue rows: two disabled currencies, one disabled direction.
    await client.query(
      `UPDATE public.currencies SET enabled = false, reserve = 12345.5 WHERE code IN ('DOGE', 'CASHEUR')`,
    );
    await client.query(
      `UPDATE public.exchange_directions SET enabled = false
        WHERE from_currency = 'ETH' AND to_currency = 'BTC'`,
    );

    // The service's bank accounts: b1 paid by the user and the stranger, b2 by the stranger
    // only, b3 by nobody, b4 (in a disabled currency) by the user.
    await client.query(
      `INSERT INTO public.bank_accounts
         (id, label, beneficiary, account_number, swift_bic, bank_address, currency_code, is_active, created_at)
       VALUES
         ($1, 'main eur', 'Exchange Ltd', 'DE89370400440532013000', 'COBADEFFXXX', 'Frankfurt 1', 'EUR', true, '2026-01-01T00:00:00Z'),
         ($2, 'stranger only', 'Hidden Beneficiary Secret', 'GB29NWBK60161331926819', 'NWBKGB2LXXX', 'London secret street', 'EUR', true, '2026-01-01T00:01:00Z'),
         ($3, 'unused', 'Unused Beneficiary', 'UA213223130000026007233566001', 'PBANUA2XXXX', 'Kyiv 3', 'UAH', false, '2026-01-01T00:02:00Z'),
         ($4, 'cash desk', 'Cash Desk', 'CASHDESK0001', 'CASHEURXXXX', 'Cash street 4', 'CASHEUR', true, '2026-01-01T00:03:00Z')`,
      [bank.b1, bank.b2, bank.b3, bank.b4],
    );

    // Orders. Columns: id, user, send, receive, amounts, rate, status, e-mail, name, payout
    // target, reason, bank account and reference, deposit address, payout tx, cancel fields,
    // created, USDT value.
    const orders: Array<
      [string, string, string, string, string, string, string, string, string, string]
    > = [
      // id, user, send, receive, send_amount, receive_amount, status, email, full_name, created_at
      [
        tx.u1!,
        u,
        'BTC',
        'ETH',
        '0.5',
        '8.1',
        'waiting_for_operator',
        'user@example.com',
        'User Own',
        '2026-02-01T10:00:00Z',
      ],
      [
        tx.u2!,
        u,
        'EUR',
        'BTC',
        '1000',
        '0.011',
        'waiting_for_payment',
        'user@example.com',
        'User Own',
        '2026-02-02T10:00:00Z',
      ],
      [
        tx.u3!,
        u,
        'BTC',
        'DOGE',
        '0.2',
        '40000',
        'completed',
        'user@example.com',
        'User Own',
        '2026-02-03T10:00:00Z',
      ],
      [
        tx.u4!,
        u,
        'CASHEUR',
        'BTC',
        '600',
        '0.007',
        'canceled',
        'user.alt@example.com',
        'User Alias',
        '2026-02-04T10:00:00Z',
      ],
      [
        tx.s1!,
        s,
        'ETH',
        'BTC',
        '3',
        '0.1',
        'waiting_for_operator',
        'stranger-secret-mail@example.net',
        'Stranger Secret',
        '2026-01-31T10:00:00Z',
      ],
      [
        tx.s2!,
        s,
        'EUR',
        'BTC',
        '5000',
        '0.055',
        'paid',
        'stranger-secret-mail@example.net',
        'Stranger Secret',
        '2026-02-05T10:00:00Z',
      ],
      [
        tx.s3!,
        s,
        'EUR',
        'ETH',
        '777',
        '0.25',
        'waiting_for_payment',
        'stranger-secret-mail@example.net',
        'Stranger Secret',
        '2026-02-06T10:00:00Z',
      ],
      [
        tx.c1!,
        c,
        'BTC',
        'USDTTRC20',
        '1',
        '60000',
        'completed',
        'referral-secret@example.com',
        'Referral Secret',
        '2026-02-07T10:00:00Z',
      ],
      [
        tx.c2!,
        c,
        'ETH',
        'USDTTRC20',
        '2',
        '5000',
        'completed',
        'referral-secret@example.com',
        'Referral Secret',
        '2026-02-08T10:00:00Z',
      ],
      [
        tx.p1!,
        p,
        'BTC',
        'XMR',
        '0.3',
        '60',
        'completed',
        'referrer-secret@example.org',
        'Referrer Secret',
        '2026-02-09T10:00:00Z',
      ],
      [
        tx.m1!,
        m,
        'BTC',
        'EUR',
        '0.1',
        '5500',
        'waiting_for_operator',
        'manager@example.com',
        'Manager Own',
        '2026-02-10T10:00:00Z',
      ],
      [
        tx.d1!,
        d,
        'DOGE',
        'BTC',
        '50000',
        '0.2',
        'canceled',
        'disabled-secret@example.com',
        'Disabled Secret',
        '2026-02-11T10:00:00Z',
      ],
    ];
    for (const [
      id,
      user,
      send,
      receive,
      sendAmount,
      receiveAmount,
      status,
      email,
      name,
      created,
    ] of orders) {
      const fiatSend = send === 'EUR' || send === 'CASHEUR';
      const bankAccount =
        status === 'waiting_for_operator'
          ? null
          : id === tx.u2 || id === tx.s3
            ? bank.b1
            : id === tx.s2
              ? bank.b2
              : id === tx.u4
                ? bank.b4
                : null;
      const reference = bankAccount ? `REF-${id.slice(0, 8).toUpperCase()}` : null;
      const deposit =
        !bankAccount && status !== 'waiting_for_operator' && !fiatSend
          ? `deposit-${id.slice(0, 12)}`
          : null;
      const receiveFiat = receive === 'EUR';
      await client.query(
        `INSERT INTO public.transactions
           (id, user_id, send_currency, receive_currency, send_amount, receive_amount, rate, status,
            email, full_name, wallet_address, iban, reason, locale, source, idempotency_key,
            deposit_address, bank_account_id, payment_reference, payout_tx_id, canceled_by,
            cancel_reason, created_at, updated_at, requisites_due_at, requisites_at, paid_at,
            completed_at, canceled_at, amount_usdt, hold_category)
         VALUES ($1, $2, $3, $4, $5, $6, ($6::numeric / $5::numeric), $7, $8, $9, $10, $11, $12,
                 $13, $14, $15, $16, $17, $18, $19, $20, $21, $22::timestamptz, $22::timestamptz,
                 $22::timestamptz + interval '10 minutes', $23, $24, $25, $26, $27, NULL)`,
        [
          id,
          user,
          send,
          receive,
          sendAmount,
          receiveAmount,
          status,
          email,
          name,
          receiveFiat
            ? null
            : `wallet-${name.replaceAll(' ', '-').toLowerCase()}-${id.slice(0, 6)}`,
          receiveFiat ? 'DE44500105175407324931' : null,
          `reason of ${name}`,
          user === s ? 'ua' : 'en',
          user === s ? 'telegram' : 'web',
          `idem-${id.slice(0, 12)}`,
          deposit,
          bankAccount,
          reference,
          status === 'completed' ? `payout-${id.slice(0, 10)}` : null,
          status === 'canceled' ? (user === d ? 'staff' : 'user') : null,
          status === 'canceled' ? `cancel reason of ${name}` : null,
          created,
          status === 'waiting_for_operator' ? null : created,
          status === 'paid' || status === 'completed' ? created : null,
          status === 'completed' ? created : null,
          status === 'canceled' ? created : null,
          (Number(sendAmount) * (send === 'BTC' ? 60000 : send === 'ETH' ? 2500 : 1)).toFixed(2),
        ],
      );
      await client.query(
        `INSERT INTO public.transaction_status_history
           (transaction_id, from_status, to_status, changed_by, note, created_at)
         VALUES ($1, NULL, 'waiting_for_operator', $2, NULL, $3::timestamptz)`,
        [id, user, created],
      );
      if (status !== 'waiting_for_operator')
        await client.query(
          `INSERT INTO public.transaction_status_history
             (transaction_id, from_status, to_status, changed_by, note, created_at)
           VALUES ($1, 'waiting_for_operator', $2, $3, $4, $5::timestamptz + interval '1 hour')`,
          [id, status, user === s ? a : m, `note by staff on ${name}`, created],
        );
    }

    // The affiliate ledger: the referral's orders pay the user, the user's pays the
    // referrer, the referrer's pays the stranger.
    const bonuses: Array<[string, string, string, string]> = [
      [u, c, tx.c1!, '60000'],
      [u, c, tx.c2!, '5000'],
      [p, u, tx.u3!, '12000'],
      [s, p, tx.p1!, '18000'],
    ];
    for (const [referrer, referral, transaction, amount] of bonuses) {
      await client.query(
        `INSERT INTO public.referral_bonuses
           (referrer_id, referral_id, transaction_id, order_amount_usdt, accrual_rate, amount_usdt, created_at)
         VALUES ($1, $2, $3, $4, 0.005, trunc($4::numeric * 0.005, 6), '2026-02-12T10:00:00Z')`,
        [referrer, referral, transaction, amount],
      );
    }
    await client.query(
      `INSERT INTO public.bonus_withdrawals
         (user_id, amount_usdt, wallet_address, status, payout_tx_id, reject_reason, processed_by, processed_at, created_at)
       VALUES
         ($1, 100, 'TUserOwnWallet000001', 'pending', NULL, NULL, NULL, NULL, '2026-02-13T10:00:00Z'),
         ($2, 150, 'TStrangerSecretWallet1', 'paid', 'stranger-payout-secret', NULL, $4, '2026-02-14T11:00:00Z', '2026-02-14T10:00:00Z'),
         ($3, 120, 'TReferralSecretWallet1', 'rejected', NULL, 'referral secret reason', $5, '2026-02-15T11:00:00Z', '2026-02-15T10:00:00Z')`,
      [u, s, c, a, m],
    );
    await client.query(
      `INSERT INTO public.user_custom_carrency (user_id, currency_code, sell_rate, buy_rate, created_at)
       VALUES ($1, 'BTC', 59000, 61000, '2026-02-16T10:00:00Z'),
              ($2, 'ETH', 2400, NULL, '2026-02-16T11:00:00Z'),
              ($3, 'BTC', 59500, 60500, '2026-02-16T12:00:00Z'),
              ($4, 'DOGE', NULL, 0.2, '2026-02-16T13:00:00Z')`,
      [u, s, m, c],
    );
    await seedChainPayments(client, { user: tx.u1!, stranger: tx.s1! });
    await client.query(
      `INSERT INTO public.support_requests
         (id, user_id, name, email, order_id, subject, message, client_key, handled, handled_by, handled_at, created_at)
       VALUES
         ($1, $4, 'User Own', 'user@example.com', '100001', 'my order', 'where is my order', 'client-user', false, NULL, NULL, '2026-02-17T10:00:00Z'),
         ($2, $5, 'Stranger Secret', 'stranger-secret-mail@example.net', NULL, 'secret subject', 'stranger secret message', 'client-stranger', true, $6, '2026-02-17T12:00:00Z', '2026-02-17T11:00:00Z'),
         ($3, NULL, 'Visitor', 'visitor-secret@example.com', NULL, NULL, 'visitor secret message', NULL, false, NULL, NULL, '2026-02-17T13:00:00Z')`,
      [support.u, support.s, support.anon, u, s, m],
    );
    await client.query(
      `INSERT INTO public.support_feedback (support_request_id, sent_by, email, subject, message, sent_at)
       VALUES ($1, $3, 'stranger-secret-mail@example.net', 'about your secret', 'feedback secret message', '2026-02-18T10:00:00Z'),
              ($2, $4, 'visitor-secret@example.com', 'hello visitor', 'feedback to visitor', '2026-02-18T11:00:00Z')`,
      [support.s, support.anon, m, a],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return ids;
}

/**
 * Makes the tracked tables ignore every write but the oracle's own. The product's cron jobs
 * run every minute against this database (refresh_rates rewrites public.rates, order_deadlines
 * flags and expires orders), and a row changed between the reference copy and a role's request
 * would be a difference the oracle cannot tell from a leak. A BEFORE trigger that returns NULL
 * skips the write; the oracle writes with session_replication_role = replica, which ordinary
 * triggers (this one included) do not fire under.
 */
export async function freezeTables(pool: pg.Pool, tables: string[]): Promise<void> {
  await pool.query(
    `CREATE FUNCTION public.oracle_frozen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
  );
  for (const table of tables)
    await pool.query(
      `CREATE TRIGGER oracle_frozen BEFORE INSERT OR UPDATE OR DELETE ON public."${table}"
         FOR EACH ROW EXECUTE FUNCTION public.oracle_frozen()`,
    );
}
