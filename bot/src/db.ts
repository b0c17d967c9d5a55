import type pg from 'pg';

import type { Locale } from '@app/shared/i18n';

/*
 * What the bot reads and writes in the product's database. Amounts are read as text: no
 * amount becomes a JS number on the way to a message.
 */

/** The pool, for what runs on a connection of its own. */
export type Pool = Pick<pg.Pool, 'query' | 'connect'>;
/** A pool or one connection: anything that runs a query. */
export type Db = Pick<pg.Pool | pg.PoolClient, 'query'>;

export interface Account {
  id: string;
  locale: Locale;
}

export async function accountOfTelegramUser(
  db: Db,
  telegramId: number,
): Promise<Account | undefined> {
  const { rows } = await db.query<Account>(
    'SELECT id, locale FROM public.portal_users WHERE telegram_id = $1 AND NOT is_disabled',
    [telegramId],
  );
  return rows[0];
}

/** A staff member (admin or manager) whose account is linked to this Telegram user. */
export async function staffOfTelegramUser(
  db: Db,
  telegramId: number,
): Promise<{ id: string; email: string | null } | undefined> {
  const { rows } = await db.query<{ id: string; email: string | null }>(
    `SELECT u.id, u.email FROM public.portal_users u
      WHERE u.telegram_id = $1 AND NOT u.is_disabled
        AND EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = u.id)`,
    [telegramId],
  );
  return rows[0];
}

export interface OrderSummary {
  id: string;
  number: string;
  status: string;
  send_amount: string;
  send_currency: string;
  send_symbol: string;
  send_network: string | null;
  receive_amount: string;
  receive_currency: string;
  receive_symbol: string;
  receive_network: string | null;
  email: string;
  /** The owner's Telegram chat, when the account is linked to Telegram. */
  telegram_id: string | null;
  owner_locale: Locale | null;
  /** Why the order waits for its owner (needs_user_action). */
  action_reason: string | null;
  /** Why the payment is held (on_hold). */
  hold_category: string | null;
  /** What arrived, when staff recorded it. */
  received_amount: string | null;
  /** `2026-01-05 14:30`, UTC. */
  created_utc: string;
  /** `14:30`, UTC: when the operator promised the payment details. */
  requisites_due_utc: string | null;
  /** Whether the deadlines job flagged the requisites as late. */
  requisites_late: boolean;
}

const ORDER_COLUMNS = `t.id, t.number::text, t.status, t.send_amount::text, t.send_currency,
  sc.symbol AS send_symbol, sc.network AS send_network, t.receive_amount::text, t.receive_currency,
  rc.symbol AS receive_symbol, rc.network AS receive_network, t.email, u.telegram_id::text,
  u.locale AS owner_locale, t.action_reason, t.hold_category, t.received_amount::text,
  to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS created_utc,
  to_char(t.requisites_due_at AT TIME ZONE 'UTC', 'HH24:MI') AS requisites_due_utc,
  t.requisites_late_at IS NOT NULL AS requisites_late`;
const ORDER_FROM = `public.transactions t
  JOIN public.currencies sc ON sc.code = t.send_currency
  JOIN public.currencies rc ON rc.code = t.receive_currency
  LEFT JOIN public.portal_users u ON u.id = t.user_id`;

export async function orderById(db: Db, id: string): Promise<OrderSummary | undefined> {
  const { rows } = await db.query<OrderSummary>(
    `SELECT ${ORDER_COLUMNS} FROM ${ORDER_FROM} WHERE t.id = $1`,
    [id],
  );
  return rows[0];
}

export async function latestOrders(db: Db, userId: string, limit: number): Promise<OrderSummary[]> {
  const { rows } = await db.query<OrderSummary>(
    `SELECT ${ORDER_COLUMNS} FROM ${ORDER_FROM} WHERE t.user_id = $1 ORDER BY t.number DESC LIMIT $2`,
    [userId, limit],
  );
  return rows;
}

/** A payment a chain watcher saw (issue 25), as the bot's messages need it. */
export interface ChainPaymentSummary {
  id: string;
  network: string;
  tx_hash: string;
  amount: string;
  /** The currency as people read it (`ETH`, `USDT (ERC20)`): its symbol and network. */
  symbol: string;
  currency_network: string | null;
  currency_code: string;
  confirmations: number;
  confirmations_required: number;
  state: string;
  outcome: string | null;
  transaction_id: string | null;
}

export async function chainPaymentById(
  db: Db,
  id: string,
): Promise<ChainPaymentSummary | undefined> {
  const { rows } = await db.query<ChainPaymentSummary>(
    `SELECT p.id, p.network, p.tx_hash, p.amount::text AS amount, c.symbol,
            c.network AS currency_network, p.currency_code, p.confirmations,
            p.confirmations_required, p.state, p.outcome, p.transaction_id
       FROM public.chain_payments p JOIN public.currencies c ON c.code = p.currency_code
      WHERE p.id = $1`,
    [id],
  );
  return rows[0];
}

export interface SupportRequest {
  id: string;
  name: string | null;
  email: string;
  order_id: string | null;
  message: string;
  handled: boolean;
}

export async function supportRequestById(db: Db, id: string): Promise<SupportRequest | undefined> {
  const { rows } = await db.query<SupportRequest>(
    'SELECT id, name, email, order_id, message, handled FROM public.support_requests WHERE id = $1',
    [id],
  );
  return rows[0];
}

/** Marks a request handled by `staffId`; false when it was handled already (or is gone). */
export async function markSupportHandled(db: Db, id: string, staffId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE public.support_requests SET handled = true, handled_by = $2
      WHERE id = $1 AND NOT handled`,
    [id, staffId],
  );
  return rowCount === 1;
}

/**
 * Records that the bot may write to Telegram user `telegramId` first (Telegram granted it:
 * decision 039). A later record keeps the first one's source and time.
 */
export async function recordWriteAccess(
  db: Db,
  telegramId: number,
  source: 'write_access_allowed' | 'init_data',
): Promise<void> {
  await db.query(
    `INSERT INTO bot.write_access (telegram_id, source) VALUES ($1, $2)
     ON CONFLICT (telegram_id) DO NOTHING`,
    [telegramId, source],
  );
}
