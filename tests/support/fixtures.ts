import type pg from 'pg';

/** Inserts a user and returns its id. */
export async function insertUser(
  db: pg.Pool | pg.PoolClient,
  values: { email?: string | null; referral_name?: string; referrer_id?: string } = {},
): Promise<string> {
  const email =
    values.email === undefined
      ? `user-${Math.random().toString(36).slice(2)}@example.com`
      : values.email;
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO portal_users (email, referral_name, referrer_id)
     VALUES ($1, COALESCE($2, substr(md5(gen_random_uuid()::text), 1, 12)), $3) RETURNING id`,
    [email, values.referral_name ?? null, values.referrer_id ?? null],
  );
  return rows[0]!.id;
}

/** A valid new order from BTC to USDT (TRC20), in waiting_for_operator. */
export async function insertOrder(
  db: pg.Pool | pg.PoolClient,
  userId: string,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; number: string }> {
  const values: Record<string, unknown> = {
    user_id: userId,
    send_currency: 'BTC',
    receive_currency: 'USDTTRC20',
    send_amount: '0.015',
    receive_amount: '1432.5',
    rate: '95500',
    email: 'buyer@example.com',
    full_name: 'Olena Kovalenko',
    wallet_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    reason: 'Savings',
    ...overrides,
  };
  const columns = Object.keys(values);
  const { rows } = await db.query<{ id: string; number: string }>(
    `INSERT INTO transactions (${columns.join(', ')})
     VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id, number::text`,
    Object.values(values),
  );
  return rows[0]!;
}

/** A bank account of the service for EUR payments. */
export async function insertBankAccount(db: pg.Pool | pg.PoolClient): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address, currency_code)
     VALUES ('Exchange Services OU', 'EE382200221020145685', 'HABAEE2X', 'Liivalaia 8, Tallinn', 'EUR')
     RETURNING id`,
  );
  return rows[0]!.id;
}
