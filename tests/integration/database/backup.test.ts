import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  applySeeds,
  createPool,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  EVENT_CATALOG_DDL,
  loadMigrationFiles,
  migrateUp,
} from '@app/engine/database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@app/engine/embedded-postgres';

import { backupDatabase, type BackupHeader } from '../../../scripts/database/backup.ts';
import { RestoreError, RestoreRefusedError } from '../../../scripts/database/restore-errors.ts';
import { restoreDatabase } from '../../../scripts/database/restore.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { insertOrder } from '../../support/fixtures.ts';
import { freePort } from '../../support/processes.ts';
import { ALL_PRODUCT_TABLES, listTables } from '../../support/schema.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCHEMAS = ['public', 'auth', 'bot', 'hdb_catalog'];

/** Ids chosen so the referral sorts before its referrer (a self-reference the load must bear). */
const REFERRER_ID = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
const REFERRAL_ID = '00000000-0000-4000-8000-000000000001';
/** More digits than a double holds: must come back exactly. */
const EXACT_AMOUNT = '0.123456789012345678901234567890';
const AWKWARD_TEXT = 'Line one\nLine two — "quoted" \\ back\tslash ✓ \u2028 end';

/** Every table of the four schemas as `to_jsonb` text, ordered by primary key. */
async function snapshot(pool: pg.Pool): Promise<Record<string, string[]>> {
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
async function schemaState(pool: pg.Pool): Promise<unknown> {
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
async function buildState(pool: pg.Pool): Promise<void> {
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

function gunzipLines(buffer: Buffer): string[] {
  return gunzipSync(buffer).toString('utf8').split('\n');
}

async function writeVariant(
  source: string,
  file: string,
  change: (lines: string[]) => string[],
): Promise<string> {
  const lines = change(gunzipLines(await readFile(source)));
  await writeFile(file, gzipSync(lines.join('\n')));
  return file;
}

function sectionIndex(lines: string[], name: string): number {
  return lines.findIndex(
    (line) =>
      line.startsWith('{"type":"table"') && (JSON.parse(line) as { name: string }).name === name,
  );
}

/** Fresh-database proof: no product table, no ledger row. */
async function expectUntouchedFresh(pool: pg.Pool): Promise<void> {
  expect(await listTables(pool)).toEqual([]);
  const { rows } = await pool.query<{ present: boolean }>(
    `SELECT to_regclass('hdb_catalog.schema_migrations') IS NOT NULL AS present`,
  );
  if (rows[0]!.present) {
    expect((await pool.query('SELECT 1 FROM hdb_catalog.schema_migrations')).rowCount).toBe(0);
  }
}

describe.each(databaseTargets)('backup and restore on $name', (target) => {
  let source: TestDatabase;
  let restored: TestDatabase;
  let dir: string;
  let file: string;
  let before: Record<string, string[]>;
  let sourceSchema: unknown;
  let nextNumber: string;

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

  it('writes one gzip file: a header, every table with its rows as the server wrote them', async () => {
    const result = await backupDatabase(source.pool, {
      dir,
      now: new Date('2025-03-04T05:06:07.890Z'),
      fetchSize: 2, // several cursor batches even for the small tables
    });
    file = result.file;
    expect(path.basename(file)).toBe('backup-20250304T050607Z.jsonl.gz');
    expect((await stat(file)).size).toBe(result.bytes);
    const files = await loadMigrationFiles(DEFAULT_MIGRATIONS_DIR);
    expect(result.migrations).toEqual(files.map((m) => m.version));

    const names = result.tables.map((t) => `${t.schema}.${t.name}`);
    for (const table of ALL_PRODUCT_TABLES) expect(names).toContain(table);
    expect(names).toContain('hdb_catalog.event_log');
    expect(names).not.toContain('hdb_catalog.schema_migrations');
    for (const table of result.tables) {
      expect(table.rows, `${table.schema}.${table.name}`).toBe(
        before[`${table.schema}.${table.name}`]!.length,
      );
    }
    // Parents before children.
    expect(names.indexOf('public.portal_users')).toBeLessThan(names.indexOf('public.transactions'));
    expect(names.indexOf('public.transactions')).toBeLessThan(
      names.indexOf('public.transaction_status_history'),
    );

    const lines = gunzipLines(await readFile(file));
    const header = JSON.parse(lines[0]!) as BackupHeader;
    expect(header).toMatchObject({
      format: 'exchange-portal-backup',
      formatVersion: 1,
      createdAt: '2025-03-04T05:06:07.890Z',
      migrations: result.migrations,
      dirtyMigrations: [],
    });
    expect(header.serverVersion).toMatch(/^\d+/);
    // Exact digits in the file itself: no amount went through a JS number.
    const text = lines.join('\n');
    expect(text).toContain(`"send_amount": ${EXACT_AMOUNT}`);
    expect(text).toContain('"amount_usdt": 1500.000000000000000001');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines.at(-2)!)).toEqual({
      type: 'end',
      tables: result.tables.length,
      rows: result.rows,
    });
    // A second backup at the same instant never overwrites the first.
    await expect(
      backupDatabase(source.pool, { dir, now: new Date('2025-03-04T05:06:07.890Z') }),
    ).rejects.toThrow(/already exists/);
  });

  it('refuses a backup made at a migration this checkout does not have, changing nothing', async () => {
    const newer = await writeVariant(file, path.join(dir, 'newer.jsonl.gz'), (lines) => {
      const header = JSON.parse(lines[0]!) as BackupHeader;
      header.migrations.push('99999999999999');
      return [JSON.stringify(header), ...lines.slice(1)];
    });
    await expect(restoreDatabase(restored.pool, newer)).rejects.toThrow(
      /migration 99999999999999, which this checkout does not have/,
    );
    const dirty = await writeVariant(file, path.join(dir, 'dirty.jsonl.gz'), (lines) => {
      const header = JSON.parse(lines[0]!) as BackupHeader;
      header.dirtyMigrations = [header.migrations.at(-1)!];
      return [JSON.stringify(header), ...lines.slice(1)];
    });
    await expect(restoreDatabase(restored.pool, dirty)).rejects.toThrow(/marked dirty/);
    await expectUntouchedFresh(restored.pool);
  });

  it('refuses a truncated file, rolling back what it had loaded', async () => {
    const cut = path.join(dir, 'truncated.jsonl.gz');
    await writeFile(cut, await readFile(file));
    await truncate(cut, Math.floor((await stat(cut)).size * 0.6));
    await expect(restoreDatabase(restored.pool, cut)).rejects.toThrow(
      /truncated\.jsonl\.gz is damaged or truncated/,
    );
    await expectUntouchedFresh(restored.pool);
  });

  it('refuses corrupted files with a clear error, changing nothing', async () => {
    const badRow = await writeVariant(file, path.join(dir, 'bad-row.jsonl.gz'), (lines) => {
      const at = sectionIndex(lines, 'transactions') + 1;
      lines[at] = lines[at]!.replace(/"send_amount": [^,}]+/, '"send_amount": "lots"');
      return lines;
    });
    await expect(restoreDatabase(restored.pool, badRow)).rejects.toThrow(
      /bad-row\.jsonl\.gz lines \d+-\d+ \(public\.transactions\): invalid input syntax for type numeric/,
    );
    await expectUntouchedFresh(restored.pool);

    // Well-formed, but an order of a user who is not there: the foreign keys are checked.
    const orphan = await writeVariant(file, path.join(dir, 'orphan.jsonl.gz'), (lines) => {
      const at = sectionIndex(lines, 'transactions') + 1;
      lines[at] = lines[at]!.replace(
        /"user_id": "[^"]+"/,
        '"user_id": "0badbadb-adba-4dba-8dba-dbadbadbadba"',
      );
      return lines;
    });
    await expect(restoreDatabase(restored.pool, orphan)).rejects.toThrow(
      /break foreign key transactions_user_id_fkey of transactions/,
    );
    await expectUntouchedFresh(restored.pool);

    const missingRow = await writeVariant(file, path.join(dir, 'missing.jsonl.gz'), (lines) => {
      lines.splice(sectionIndex(lines, 'support_requests') + 1, 1);
      return lines;
    });
    await expect(restoreDatabase(restored.pool, missingRow)).rejects.toThrow(RestoreError);
    await expectUntouchedFresh(restored.pool);

    const flipped = path.join(dir, 'flipped.jsonl.gz');
    const bytes = await readFile(file);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    await writeFile(flipped, bytes);
    await expect(restoreDatabase(restored.pool, flipped)).rejects.toThrow(RestoreError);
    await expectUntouchedFresh(restored.pool);

    const notGzip = path.join(dir, 'plain.jsonl');
    await writeFile(notGzip, gunzipSync(await readFile(file)));
    await expect(restoreDatabase(restored.pool, notGzip)).rejects.toThrow(/not a gzip'd backup/);
    await expect(restoreDatabase(restored.pool, path.join(dir, 'nope.gz'))).rejects.toThrow(
      /cannot read .*nope\.gz/,
    );
    await expectUntouchedFresh(restored.pool);
  });

  it('restores into a fresh database: every table row for row, the ledger from the migrations', async () => {
    const result = await restoreDatabase(restored.pool, file);
    expect(result.triggerMode).toBe('replica');
    expect(result.replaced).toBe(false);
    expect(result.skipped).toEqual([]);
    expect(await snapshot(restored.pool)).toEqual(before);
    expect(await schemaState(restored.pool)).toEqual(sourceSchema);
    const { rows } = await restored.pool.query<{ send_amount: string; reason: string }>(
      `SELECT send_amount::text, reason FROM transactions WHERE send_amount = $1`,
      [EXACT_AMOUNT],
    );
    expect(rows).toEqual([{ send_amount: EXACT_AMOUNT, reason: AWKWARD_TEXT }]);
  });

  it('did not fire the triggers during the load: no extra history, bonus or level change', async () => {
    const counts = async (pool: pg.Pool) =>
      (
        await pool.query(
          `SELECT (SELECT count(*)::int FROM transaction_status_history) AS history,
                  (SELECT count(*)::int FROM referral_bonuses) AS bonuses,
                  (SELECT count(*)::int FROM hdb_catalog.event_log WHERE NOT delivered) AS pending,
                  (SELECT string_agg(status, ',' ORDER BY id) FROM portal_users) AS levels`,
        )
      ).rows[0] as Record<string, unknown>;
    const expected = await counts(source.pool);
    expect(expected).toMatchObject({ history: 10, bonuses: 1, pending: 1 });
    expect(await counts(restored.pool)).toEqual(expected);
  });

  it('continues identities and keeps the guards: a new order gets the next number', async () => {
    const fresh = async (pool: pg.Pool) => {
      const { rows: users } = await pool.query<{ id: string }>(
        `SELECT id FROM portal_users WHERE email = 'referrer@example.com'`,
      );
      return insertOrder(pool, users[0]!.id);
    };
    nextNumber = (await fresh(source.pool)).number;
    const order = await fresh(restored.pool);
    expect(order.number).toBe(nextNumber);
    const { rows: history } = await restored.pool.query(
      'SELECT from_status, to_status FROM transaction_status_history WHERE transaction_id = $1',
      [order.id],
    );
    expect(history).toEqual([{ from_status: null, to_status: 'waiting_for_operator' }]);
    const { rows: referrer } = await restored.pool.query<{ id: string }>(
      `SELECT id FROM portal_users WHERE email = 'referrer@example.com'`,
    );
    await expect(
      insertOrder(restored.pool, referrer[0]!.id, {
        status: 'completed',
        payout_tx_id: 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d',
      }),
    ).rejects.toThrow(/must start in waiting_for_operator/);
  });

  it('refuses a database that has data, without --force, changing nothing', async () => {
    const current = await snapshot(restored.pool);
    await expect(restoreDatabase(restored.pool, file)).rejects.toThrow(RestoreRefusedError);
    await expect(restoreDatabase(restored.pool, file)).rejects.toThrow(
      /already has product data \(rows in .*\); restore into an empty database, or pass --force/,
    );
    expect(await snapshot(restored.pool)).toEqual(current);

    // A damaged file with --force: the schemas are dropped and rebuilt in the one transaction,
    // so the rollback leaves everything as it was.
    const cut = path.join(dir, 'truncated-force.jsonl.gz');
    await writeFile(cut, await readFile(file));
    await truncate(cut, Math.floor((await stat(cut)).size * 0.8));
    await expect(restoreDatabase(restored.pool, cut, { force: true })).rejects.toThrow(
      /damaged or truncated/,
    );
    expect(await snapshot(restored.pool)).toEqual(current);
  });

  it('--force replaces the data, also with ALTER TABLE … DISABLE TRIGGER instead of replica', async () => {
    const result = await restoreDatabase(restored.pool, file, {
      force: true,
      triggers: 'disable-triggers',
      batchRows: 1, // one row per INSERT: a referral before its referrer needs the deferred keys
    });
    expect(result.triggerMode).toBe('disable-triggers');
    expect(result.replaced).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(await snapshot(restored.pool)).toEqual(before);
    // Triggers enabled again as they were, foreign keys not deferrable again, public as it was.
    expect(await schemaState(restored.pool)).toEqual(sourceSchema);
    const { rows: users } = await restored.pool.query<{ id: string }>(
      `SELECT id FROM portal_users WHERE email = 'referrer@example.com'`,
    );
    expect((await insertOrder(restored.pool, users[0]!.id)).number).toBe(nextNumber);
  });
  it('skips hdb_catalog tables this engine does not create, refuses unknown product tables', async () => {
    const withTable = (schema: string, name: string) => (lines: string[]) => {
      const header = JSON.parse(lines[0]!) as BackupHeader;
      header.tables.push({ schema, name, rows: 1 });
      const end = JSON.parse(lines.at(-2)!) as { tables: number; rows: number };
      const section = {
        type: 'table',
        schema,
        name,
        columns: [{ name: 'id', type: 'integer', generated: false, identity: false }],
        primaryKey: ['id'],
        rows: 1,
      };
      return [
        JSON.stringify(header),
        ...lines.slice(1, -3),
        JSON.stringify(section),
        '{"id": 1}',
        lines.at(-3)!, // the sequences
        JSON.stringify({ ...end, tables: end.tables + 1, rows: end.rows + 1 }),
        '',
      ];
    };
    const hasura = await writeVariant(
      file,
      path.join(dir, 'hasura-metadata.jsonl.gz'),
      withTable('hdb_catalog', 'hdb_metadata'),
    );
    const result = await restoreDatabase(restored.pool, hasura, { force: true });
    expect(result.skipped).toEqual(['hdb_catalog.hdb_metadata']);
    expect(await snapshot(restored.pool)).toEqual(before);

    const unknown = await writeVariant(
      file,
      path.join(dir, 'unknown-table.jsonl.gz'),
      withTable('public', 'not_ours'),
    );
    await expect(restoreDatabase(restored.pool, unknown, { force: true })).rejects.toThrow(
      /the backup has a table public\.not_ours that its migrations do not create here/,
    );
    expect(await snapshot(restored.pool)).toEqual(before);
  });

  it.runIf(target.name === 'postgres')(
    'falls back to ALTER TABLE … DISABLE TRIGGER for a database owner who is not a superuser',
    async () => {
      const suffix = randomBytes(4).toString('hex');
      const role = `restorer_${suffix}`;
      const password = randomBytes(12).toString('hex');
      const database = `restore_owner_${suffix}`;
      const admin = new pg.Client({ connectionString: source.url });
      await admin.connect();
      let pool: pg.Pool | undefined;
      try {
        await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
        await admin.query(`CREATE DATABASE ${database} OWNER ${role}`);
        const url = new URL(source.url);
        url.username = role;
        url.password = password;
        url.pathname = `/${database}`;
        pool = createPool(url.toString(), 2);
        const result = await restoreDatabase(pool, file);
        expect(result.triggerMode).toBe('disable-triggers');
        expect(await snapshot(pool)).toEqual(before);
        expect(await schemaState(pool)).toEqual(sourceSchema);
        // --force as the owner: the public schema comes back with its owner and grants.
        await restoreDatabase(pool, file, { force: true });
        expect(await snapshot(pool)).toEqual(before);
        expect(await schemaState(pool)).toEqual(sourceSchema);
      } finally {
        await pool?.end();
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    },
  );
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- <args>` in the repository, as a person types it. */
function npmRun(script: string, args: string[], databaseUrl: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run db:backup and db:restore against the embedded database', () => {
  let dir: string;
  const databases: EmbeddedPostgres[] = [];
  const pools: pg.Pool[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'backup-cli-'));
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all(databases.map((db) => db.stop()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const embedded = async (name: string) => {
    const db = await startEmbeddedPostgres({
      dataDir: path.join(dir, name),
      port: await freePort(),
    });
    databases.push(db);
    const pool = createPool(db.url, 2);
    pools.push(pool);
    return { db, pool };
  };

  it('backs up one embedded database and restores it into another', async () => {
    const source = await embedded('source');
    await buildState(source.pool);
    const expected = await snapshot(source.pool);
    const out = path.join(dir, 'cli.jsonl.gz');

    const backup = await npmRun('db:backup', ['--out', out], source.db.url);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`backup written to ${out}`);
    expect(backup.stdout).toMatch(/public\.transactions\s+4\n/);
    expect(backup.stdout).toMatch(/public\.transaction_status_history\s+10\n/);

    const target = await embedded('target');
    const restore = await npmRun('db:restore', [out], target.db.url);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`restored ${out}`);
    expect(restore.stdout).toMatch(/public\.transactions\s+4\n/);
    expect(await snapshot(target.pool)).toEqual(expected);

    const again = await npmRun('db:restore', [out], target.db.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has product data.*--force/);
    expect(again.stderr).toContain('the database was not changed');

    const forced = await npmRun('db:restore', ['--force', out], target.db.url);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('replaced (--force)');
    expect(await snapshot(target.pool)).toEqual(expected);

    const usage = await npmRun('db:restore', [], target.db.url);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run db:restore -- [--force] FILE');
  });
});
