import type pg from 'pg';

/** Every table the product's migrations create, by schema. */
export const PRODUCT_TABLES = {
  public: [
    'affiliate_settings',
    'bank_accounts',
    'bonus_withdrawals',
    'chain_networks',
    'chain_payments',
    'chain_watch_state',
    'currencies',
    'exchange_directions',
    'portal_users',
    'rates',
    'referral_bonuses',
    'retired_referral_names',
    'roles',
    'staff_audit_log',
    'support_feedback',
    'support_requests',
    'transaction_status_history',
    'transactions',
    'user_custom_carrency',
    'user_levels',
  ],
  auth: [
    'login_codes',
    'password_reset_tokens',
    'rate_limits',
    'refresh_tokens',
    'telegram_link_tokens',
  ],
  bot: ['handled_events', 'sandbox_accounts', 'write_access'],
} as const;

/** Tables that exist in the product's schemas (public, auth, bot), as `schema.table`, sorted. */
export async function listTables(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
     WHERE table_schema IN ('public', 'auth', 'bot') AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

export const ALL_PRODUCT_TABLES = Object.entries(PRODUCT_TABLES)
  .flatMap(([schema, tables]) => tables.map((table) => `${schema}.${table}`))
  .sort();
