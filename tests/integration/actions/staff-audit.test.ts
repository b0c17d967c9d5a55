import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type Caller,
} from './harness.ts';
import * as doc from './staff-console-documents.ts';
import { ACCOUNT } from './staff-console-harness.ts';

/*
 * The staff audit log (issue 23, decision 045): triggers record every change to what staff
 * manage, with the session of the change as the engine and the actions service set it
 * (`hasura.user`), or none for a script; administrators read it through GraphQL, nobody changes
 * it, neither through GraphQL nor as the database user.
 */

/** The console's own query (client/src/graphql/operations/administrator/staff-audit.graphql). */
const AUDIT_LOG = await readFile(
  new URL(
    '../../../client/src/graphql/operations/administrator/staff-audit.graphql',
    import.meta.url,
  ),
  'utf8',
);

interface LogRow {
  id: string;
  actor_id: string | null;
  actor_role: string | null;
  db_role: string;
  table_name: string;
  row_key: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  actor: { id: string; email: string | null } | null;
}

describe.each(databaseTargets)('the staff audit log on $name', (target) => {
  let db: TestDatabase;
  let stack: ActionsStack;
  const ids = { admin: randomUUID(), manager: randomUUID(), carol: randomUUID() };
  const admin: Caller = { userId: ids.admin, role: 'administrator' };
  const manager: Caller = { userId: ids.manager, role: 'manager' };

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, ids);
    await db.pool.query(
      `INSERT INTO roles (user_id, role_type) VALUES ($1, 'admin'), ($2, 'manager')`,
      [ids.admin, ids.manager],
    );
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await db?.dispose();
  });

  async function ok(query: string, variables: Record<string, unknown>, caller: Caller) {
    const body = await stack.graphql(query, variables, caller);
    expect(body.errors).toBeUndefined();
    return body.data!;
  }
  /** The log's rows for one table's row, oldest first, read as an administrator would. */
  async function logOf(table: string, key: string): Promise<LogRow[]> {
    const data = await ok(
      AUDIT_LOG,
      { where: { table_name: { _eq: table }, row_key: { _eq: key } }, limit: 50, offset: 0 },
      admin,
    );
    return (data['staff_audit_log'] as LogRow[]).reverse();
  }
  async function adminSecret(query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(`${stack.engineUrl}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hasura-admin-secret': TEST_ADMIN_SECRET },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> };
  }

  it('records a bank account created, edited and deactivated in the console, by whom, before and after', async () => {
    const created = (await ok(doc.CREATE_BANK_ACCOUNT, { object: ACCOUNT }, manager))[
      'insert_bank_accounts_one'
    ] as { id: string };
    await ok(doc.UPDATE_BANK_ACCOUNT, { id: created.id, set: { label: 'EUR reserve' } }, admin);
    await ok(doc.UPDATE_BANK_ACCOUNT, { id: created.id, set: { is_active: false } }, manager);
    // Setting what is already there changes nothing and is not recorded.
    await ok(doc.UPDATE_BANK_ACCOUNT, { id: created.id, set: { is_active: false } }, manager);

    const rows = await logOf('bank_accounts', created.id);
    expect(rows.map((row) => [row.action, row.actor_id, row.actor_role])).toEqual([
      ['insert', ids.manager, 'manager'],
      ['update', ids.admin, 'administrator'],
      ['update', ids.manager, 'manager'],
    ]);
    expect(rows[0]!.before).toBeNull();
    expect(rows[0]!.after).toMatchObject({
      label: 'EUR main',
      account_number: ACCOUNT.account_number,
    });
    expect(rows[1]!.before).toMatchObject({ label: 'EUR main' });
    expect(rows[1]!.after).toMatchObject({ label: 'EUR reserve' });
    expect(rows[2]!.before).toMatchObject({ is_active: true });
    expect(rows[2]!.after).toMatchObject({ is_active: false });
    expect(rows[1]!.actor).toEqual({ id: ids.admin, email: 'admin@example.com' });
  });

  it('records custom rates, levels and a customer level set in the console, without private columns', async () => {
    const rate = (
      await ok(
        doc.SET_CUSTOM_RATE,
        { userId: ids.carol, currency: 'BTC', buyRate: '65000.5', sellRate: null },
        manager,
      )
    )['insert_user_custom_carrency_one'] as { id: string };
    await ok(doc.REMOVE_CUSTOM_RATE, { id: rate.id }, manager);
    expect(
      (await logOf('user_custom_carrency', rate.id)).map((row) => [row.action, row.actor_id]),
    ).toEqual([
      ['insert', ids.manager],
      ['delete', ids.manager],
    ]);
    const [inserted] = await logOf('user_custom_carrency', rate.id);
    // Exact, as the database prints it: a numeric is never a float on its way to the log.
    expect(inserted!.after!['buy_rate']).toBe('65000.5');

    await ok(doc.UPDATE_USER_LEVEL, { status: 'gold', set: { buy_margin: '0.012' } }, admin);
    const [level] = (await logOf('user_levels', 'gold')).slice(-1);
    expect(level).toMatchObject({ action: 'update', actor_id: ids.admin });
    expect([level!.before!['buy_margin'], level!.after!['buy_margin']]).toEqual([
      '0.015000',
      '0.012000',
    ]);

    await ok(doc.SET_USER_STATUS, { id: ids.carol, status: 'silver' }, admin);
    const [status] = await logOf('portal_users', ids.carol);
    expect(status).toMatchObject({ action: 'update', actor_id: ids.admin });
    expect(status!.before).toEqual({
      id: ids.carol,
      email: 'carol@example.com',
      status: 'new',
      is_disabled: false,
    });
    expect(status!.after).toEqual({
      id: ids.carol,
      email: 'carol@example.com',
      status: 'silver',
      is_disabled: false,
    });
  });

  it('records roles granted and revoked through the actions service as the acting administrator', async () => {
    await ok(doc.GRANT_MANAGER, { email: 'carol@example.com' }, admin);
    await ok(doc.REVOKE_MANAGER, { userId: ids.carol }, admin);
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT row_key AS id FROM staff_audit_log WHERE table_name = 'roles' AND after ->> 'user_id' = $1`,
      [ids.carol],
    );
    const log = await logOf('roles', rows[0]!.id);
    expect(log.map((row) => [row.action, row.actor_id, row.actor_role])).toEqual([
      ['insert', ids.admin, 'administrator'],
      ['delete', ids.admin, 'administrator'],
    ]);
    expect(log[1]!.before).toMatchObject({ user_id: ids.carol, role_type: 'manager' });
  });

  it('records a change made outside any request (a script, psql) with no actor and the database role', async () => {
    await db.pool.query(`UPDATE affiliate_settings SET accrual_rate = 0.006`);
    const [row] = (await logOf('affiliate_settings', 'true')).slice(-1);
    const { rows } = await db.pool.query<{ user: string }>(`SELECT session_user AS user`);
    expect(row).toMatchObject({ action: 'update', actor_id: null, actor_role: null, actor: null });
    expect(row!.db_role).toBe(rows[0]!.user);
    expect([row!.before!['accrual_rate'], row!.after!['accrual_rate']]).toEqual([
      '0.005000',
      '0.006000',
    ]);
  });

  it('filters by table, actor and date, newest first, a page at a time', async () => {
    const page = await ok(
      AUDIT_LOG,
      { where: { actor_id: { _eq: ids.manager } }, limit: 2, offset: 0 },
      admin,
    );
    const rows = page['staff_audit_log'] as LogRow[];
    const count = (page['staff_audit_log_aggregate'] as { aggregate: { count: number } }).aggregate
      .count;
    expect(rows).toHaveLength(2);
    expect(count).toBeGreaterThan(2);
    expect(Number(rows[0]!.id)).toBeGreaterThan(Number(rows[1]!.id));
    expect(rows.every((row) => row.actor_id === ids.manager)).toBe(true);

    const future = await ok(
      AUDIT_LOG,
      { where: { created_at: { _gte: '2999-01-01T00:00:00Z' } }, limit: 10, offset: 0 },
      admin,
    );
    expect(future['staff_audit_log']).toEqual([]);
  });

  it('is read by administrators only and changed by no role through GraphQL', async () => {
    for (const caller of [manager, ids.carol, undefined]) {
      const body = await stack.graphql(AUDIT_LOG, { where: {}, limit: 1, offset: 0 }, caller);
      expect(body.errors?.[0]?.extensions['code']).toBe('validation-failed');
    }
    for (const mutation of [
      `mutation { insert_staff_audit_log_one(object: {}) { id } }`,
      `mutation { update_staff_audit_log(where: {}, _set: { action: "insert" }) { affected_rows } }`,
      `mutation { delete_staff_audit_log(where: {}) { affected_rows } }`,
    ]) {
      const body = await stack.graphql(mutation, {}, admin);
      expect(body.errors?.[0]?.extensions['code']).toBe('validation-failed');
    }
    // The admin secret passes every permission; the database still refuses.
    const update = await adminSecret(
      `mutation { update_staff_audit_log(where: {}, _set: { row_key: "forged" }) { affected_rows } }`,
    );
    expect(update.errors?.length).toBeGreaterThan(0);
    const remove = await adminSecret(
      `mutation { delete_staff_audit_log(where: {}) { affected_rows } }`,
    );
    expect(remove.errors?.length).toBeGreaterThan(0);
    const { rows } = await db.pool.query(`SELECT 1 FROM staff_audit_log WHERE row_key = 'forged'`);
    expect(rows).toEqual([]);
  });

  it('refuses the database user a forged row, an edit, a deletion and a truncation', async () => {
    const before = await db.pool.query<{ count: string }>(`SELECT count(*) FROM staff_audit_log`);
    const refused = [
      `INSERT INTO staff_audit_log (table_name, row_key, action, after) VALUES ('roles', 'x', 'insert', '{}')`,
      `UPDATE staff_audit_log SET row_key = 'forged'`,
      `DELETE FROM staff_audit_log`,
      `TRUNCATE staff_audit_log`,
    ];
    for (const sql of refused) {
      await expect(db.pool.query(sql), sql).rejects.toThrow(/append-only/);
    }
    const after = await db.pool.query<{ count: string }>(`SELECT count(*) FROM staff_audit_log`);
    expect(after.rows[0]!.count).toBe(before.rows[0]!.count);
  });
});
