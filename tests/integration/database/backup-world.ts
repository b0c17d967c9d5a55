import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import type pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';

import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  EVENT_CATALOG_DDL,
  migrateUp,
} from '@app/engine/database';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import { insertOrder } from '../../support/fixtures.ts';
import { listTables } from '../../support/schema.ts';

/*
 * The backup suites' shared world: a source database holding a bit of everything the product
 * keeps (buildState), its snapshot and schema state to compare restores against, a fresh
 * database to restore into and a scratch folder for backup files. Each suite file calls
 * useBackupWorld inside its describe.each, which starts one such world for the file.
 */

const SCHEMAS = ['public', 'auth', 'bot', 'hdb_catalog'];

/** Ids chosen so the referral sorts before its referrer (a self-reference the load must bear). */
const REFERRER_ID = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
const REFERRAL_ID = '00000000-0000-4000-8000-000000000001';
/** More digits than a double holds: must come back exactly. */
export const EXACT_AMOUNT = '0.123456789012345678901234567890';
export const AWKWARD_TEXT = 'Line one\nLine two — "quoted" \\ back\tslash ✓ \u2028 end';

/** Every table of the four schemas as `to_jsonb` text, ordered by primary key. */
export async function snapshot(pool: pg.Pool): Promise<Record<string, string[]>> {
  const { rows: tables } = await pool.query<{ name: string; key: string | null }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name,
            (SELECT string_agg(format('r.%I', a.attname), ', ' ORDER BY k.position)
               FROM pg_constraint con
               CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, position)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
              WHERE con.conrelid = c.oid AND con.contype = 'p') AS key
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind = 'r'
      ORDER BY 1`,
    [SCHEMAS],
  );
  const result: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await pool.query<{ row: string }>(
      `SELECT to_jsonb(r.*)::text AS row FROM ${table.name} AS r ORDER BY ${table.key ?? '1'}`,
    );
    result[table.name] = rows.map((row) => row.row);
  }
  return result;
}

/** Trigger states, foreign-key deferrability and the public schema's owner and grants. */
export async function schemaState(pool: pg.Pool): Promise<unknown> {
  const triggers = await pool.query(
    `SELECT c.relname, t.tgname, t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT t.tgisinternal AND n.nspname = ANY($1::text[]) ORDER BY 1, 2`,
    [SCHEMAS],
  );
  const keys = await pool.query(
    `SELECT conrelid::regclass::text AS tbl, conname, condeferrable, condeferred FROM pg_constraint
      WHERE contype = 'f' ORDER BY 1, 2`,
  );
  const schema = await pool.query(
    `SELECT nspowner::regrole::text AS owner, nspacl::text AS acl FROM pg_namespace WHERE nspname = 'public'`,
  );
  return { triggers: triggers.rows, keys: keys.rows, schema: schema.rows };
}

/** Migrations, seeds and a bit of everything the product keeps. */
export async function buildState(pool: pg.Pool): Promise<void> {
  await migrateUp(pool, DEFAULT_MIGRATIONS_DIR);
  await applySeeds(pool, DEFAULT_SEEDS_DIR);
  await pool.query(EVENT_CATALOG_DDL);
  // A generous program so one order earns a withdrawable bonus; differs from the migration's row.
  await pool.query(`UPDATE affiliate_settings SET accrual_rate = 0.1`);

  await pool.query(
    `INSERT INTO portal_users (id, email, referral_name) VALUES ($1, 'referrer@example.com', 'referrer1')`,
    [REFERRER_ID],
  );
  await pool.query(
    `INSERT INTO portal_users (id, email, referral_name, referrer_id, locale)
     VALUES ($1, 'referral@example.com', 'referral1', $2, 'ua')`,
    [REFERRAL_ID, REFERRER_ID],
  );
  const { rows: staff } = await pool.query<{ id: string }>(
    `INSERT INTO portal_users (email, telegram_id, telegram_username) VALUES ('staff@example.com', 4242, 'staffer')
     RETURNING id`,
  );
  const staffId = staff[0]!.id;
  await pool.query(`INSERT INTO roles (user_id, role_type) VALUES ($1, 'admin')`, [staffId]);
  await pool.query(
    `INSERT INTO user_custom_carrency (user_id, currency_code, sell_rate) VALUES ($1, 'BTC', 0.987654321098765432109876)`,
    [REFERRAL_ID],
  );
  await pool.query(
    `INSERT INTO bank_accounts (beneficiary, account_number, swift_bic, bank_address, currency_code)
     VALUES ('Exchange Services OU', 'EE382200221020145685', 'HABAEE2X', 'Liivalaia 8, Tallinn', 'EUR')`,
  );

  // Completed: history of four steps, a referral bonus for the referrer.
  const completed = await insertOrder(pool, REFERRAL_ID, {
    send_amount: EXACT_AMOUNT,
    amount_usdt: '1500.000000000000000001',
    reason: AWKWARD_TEXT,
  });
  const move = (id: string, set: string, params: unknown[] = []) =>
    pool.query(`UPDATE transactions SET ${set} WHERE id = $1`, [id, ...params]);
  await move(completed.id, `status = 'waiting_for_payment', deposit_address = $2`, [
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  ]);
  await move(completed.id, `status = 'paid'`);
  await move(completed.id, `status = 'completed', payout_tx_id = $2`, [
    'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d',
  ]);
  // Canceled after the requisites.
  const canceled = await insertOrder(pool, REFERRAL_ID, { amount_usdt: '1432.5' });
  await move(canceled.id, `status = 'waiting_for_payment', deposit_address = $2`, [
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  ]);
  await move(
    canceled.id,
    `status = 'canceled', canceled_by = 'user', cancel_reason = 'changed my mind'`,
  );
  // Waiting for payment, and a fresh one waiting for the operator.
  const waiting = await insertOrder(pool, REFERRER_ID);
  await move(waiting.id, `status = 'waiting_for_payment', deposit_address = $2`, [
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  ]);
  await insertOrder(pool, REFERRER_ID, { idempotency_key: 'click-7f3a9c21' });

  await pool.query(
    `INSERT INTO bonus_withdrawals (user_id, amount_usdt, wallet_address)
     VALUES ($1, 100, 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')`,
    [REFERRER_ID],
  );
  const { rows: request } = await pool.query<{ id: string }>(
    `INSERT INTO support_requests (user_id, name, email, order_id, message, client_key)
     VALUES ($1, 'Olena', 'referral@example.com', '100001', $2, 'client-1') RETURNING id`,
    [REFERRAL_ID, AWKWARD_TEXT],
  );
  await pool.query(
    `INSERT INTO support_requests (name, email, subject, message) VALUES ('Guest', 'guest@example.com', 'Rates', 'How are rates set?')`,
  );
  await pool.query(
    `INSERT INTO support_feedback (support_request_id, sent_by, email, subject, message)
     VALUES ($1, $2, 'referral@example.com', 'Re: your order', 'Done.')`,
    [request[0]!.id, staffId],
  );

  await pool.query(
    `INSERT INTO auth.refresh_tokens (user_id, family_id, token_hash, expires_at, user_agent, ip)
     VALUES ($1, gen_random_uuid(), sha256('token-1'), now() + interval '30 days', 'Mozilla/5.0', '203.0.113.7')`,
    [REFERRAL_ID],
  );
  await pool.query(
    `INSERT INTO auth.login_codes (user_id, purpose, ticket_hash, code_hash, expires_at)
     VALUES ($1, 'login_2fa', sha256('ticket'), sha256('123456'), now() + interval '10 minutes')`,
    [REFERRER_ID],
  );
  await pool.query(
    `INSERT INTO auth.rate_limits (key, hits, reset_at) VALUES ('login:referral@example.com', 3, now() + interval '1 minute')`,
  );
  await pool.query(
    `INSERT INTO bot.handled_events (event_id, trigger_name, status, handled_at)
     VALUES (gen_random_uuid(), 'order_status_changed', 'sent', now())`,
  );
  // An event the engine has not delivered yet.
  await pool.query(
    `SELECT hdb_catalog.insert_event_log('public', 'transactions', 'order_status_changed', 'UPDATE',
       json_build_object('old', NULL, 'new', json_build_object('id', $1::text, 'amount', 1500.000000000000000001)))`,
    [completed.id],
  );
}

export function gunzipLines(buffer: Buffer): string[] {
  return gunzipSync(buffer).toString('utf8').split('\n');
}

export async function writeVariant(
  source: string,
  file: string,
  change: (lines: string[]) => string[],
): Promise<string> {
  const lines = change(gunzipLines(await readFile(source)));
  await writeFile(file, gzipSync(lines.join('\n')));
  return file;
}

export function sectionIndex(lines: string[], name: string): number {
  return lines.findIndex(
    (line) =>
      line.startsWith('{"type":"table"') && (JSON.parse(line) as { name: string }).name === name,
  );
}

/** Fresh-database proof: no product table, no ledger row. */
export async function expectUntouchedFresh(pool: pg.Pool): Promise<void> {
  expect(await listTables(pool)).toEqual([]);
  const { rows } = await pool.query<{ present: boolean }>(
    `SELECT to_regclass('hdb_catalog.schema_migrations') IS NOT NULL AS present`,
  );
  if (rows[0]!.present) {
    expect((await pool.query('SELECT 1 FROM hdb_catalog.schema_migrations')).rowCount).toBe(0);
  }
}

/** Starts the world before the suite's tests and stops it after; the handles are read lazily. */
export function useBackupWorld(target: DatabaseTarget) {
  let source: TestDatabase;
  let restored: TestDatabase;
  let dir: string;
  let before: Record<string, string[]>;
  let sourceSchema: unknown;
  // The backup file the suite's tests restore; the suite writes it (a test or its own beforeAll).
  let file: string | undefined;

  beforeAll(async () => {
    [source, restored] = await Promise.all([target.create(), target.create()]);
    dir = await mkdtemp(path.join(tmpdir(), 'backup-test-'));
    await buildState(source.pool);
    before = await snapshot(source.pool);
    sourceSchema = await schemaState(source.pool);
  });
  afterAll(async () => {
    await Promise.all([source?.dispose(), restored?.dispose()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  return {
    get source() {
      return source;
    },
    get restored() {
      return restored;
    },
    get dir() {
      return dir;
    },
    get before() {
      return before;
    },
    get sourceSchema() {
      return sourceSchema;
    },
    get file(): string {
      if (!file) throw new Error('no backup written yet in this suite');
      return file;
    },
    set file(value: string) {
      file = value;
    },
  };
}
