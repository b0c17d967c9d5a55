import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadMetadata, type Metadata, type TableMetadata } from '@app/engine';
import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  HASURA_PROJECT_DIR,
  migrateUp,
} from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, TEST_ADMIN_SECRET, type TestEngine } from '../../support/engine.ts';
import { signHs256, userClaims } from '../../support/jwt.ts';

/*
 * The product's real metadata, every tracked table x role x root operation: a role can use an
 * operation exactly when the metadata grants it (admin always can), proven through HTTP with
 * the credentials each role really arrives with. It follows the metadata as permissions change.
 */

/*
 * Staff admins sign in as `administrator`, a least-privilege role; Hasura's own `admin` is the
 * unrestricted role services reach with the admin secret.
 */
const ROLES = ['anonymous', 'user', 'manager', 'administrator', 'admin'] as const;
type Role = (typeof ROLES)[number];
const OPERATIONS = [
  'select',
  'select_by_pk',
  'select_aggregate',
  'insert',
  'update',
  'delete',
] as const;
type Operation = (typeof OPERATIONS)[number];

const STAFF_USER_ID = '00000000-0000-4000-8000-000000000001';

function headersFor(role: Role): Record<string, string> {
  switch (role) {
    case 'anonymous':
      return {};
    case 'user':
      return { authorization: `Bearer ${signHs256(userClaims(STAFF_USER_ID, ['user']))}` };
    case 'manager':
      return {
        authorization: `Bearer ${signHs256(userClaims(STAFF_USER_ID, ['user', 'manager']))}`,
        'x-hasura-role': 'manager',
      };
    case 'administrator':
      return {
        authorization: `Bearer ${signHs256(userClaims(STAFF_USER_ID, ['user', 'manager', 'administrator']))}`,
        'x-hasura-role': 'administrator',
      };
    case 'admin':
      return { 'x-hasura-admin-secret': TEST_ADMIN_SECRET };
  }
}

function rootName(table: TableMetadata, operation: Operation): string {
  const custom = table.configuration.custom_root_fields[operation];
  if (typeof custom === 'string') return custom;
  const name =
    table.configuration.custom_name ??
    (table.table.schema === 'public'
      ? table.table.name
      : `${table.table.schema}_${table.table.name}`);
  const patterns: Record<Operation, string> = {
    select: name,
    select_by_pk: `${name}_by_pk`,
    select_aggregate: `${name}_aggregate`,
    insert: `insert_${name}`,
    update: `update_${name}`,
    delete: `delete_${name}`,
  };
  return patterns[operation];
}

/** Primary key columns per table name, read from the database. */
let primaryKeys = new Map<string, string[]>();
/** Tracked views (read models): no primary key, no mutations. */
let views = new Set<string>();

function granted(table: TableMetadata, role: Role, operation: Operation): boolean {
  if (views.has(table.table.name) && operation !== 'select' && operation !== 'select_aggregate')
    return false;
  if (role === 'admin') return true;
  const select = table.select_permissions.find((entry) => entry.role === role)?.permission;
  const rootAllowed = (kind: string) =>
    !select?.query_root_fields || select.query_root_fields.includes(kind);
  switch (operation) {
    case 'select':
      return select !== undefined && rootAllowed('select');
    case 'select_by_pk':
      // Exists only when every primary key column is readable by the role.
      return (
        select !== undefined &&
        rootAllowed('select_by_pk') &&
        (primaryKeys.get(table.table.name) ?? []).every(
          (column) => select.columns === '*' || select.columns.includes(column),
        )
      );
    case 'select_aggregate':
      return select !== undefined && select.allow_aggregations && rootAllowed('select_aggregate');
    case 'insert':
      return table.insert_permissions.some((entry) => entry.role === role);
    case 'update':
      return table.update_permissions.some((entry) => entry.role === role);
    case 'delete':
      return table.delete_permissions.some((entry) => entry.role === role);
  }
}

function probe(table: TableMetadata, operation: Operation): string {
  const field = rootName(table, operation);
  switch (operation) {
    case 'select':
      return `query { ${field}(limit: 0) { __typename } }`;
    case 'select_by_pk':
      return `query { ${field} { __typename } }`;
    case 'select_aggregate':
      return `query { ${field} { aggregate { count } } }`;
    case 'insert':
      return `mutation { ${field}(objects: []) { affected_rows } }`;
    case 'update':
      return `mutation { ${field}(where: {}, _set: {}) { affected_rows } }`;
    case 'delete':
      return `mutation { ${field}(where: {_not: {}}) { affected_rows } }`;
  }
}

const DENIED = /not found in type|no mutations exist/;

const target = databaseTargets[0]!;

describe('permission matrix of the product metadata', () => {
  let db: TestDatabase;
  let engine: TestEngine;
  let metadata: Metadata;

  beforeAll(async () => {
    db = await target.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
    metadata = await loadMetadata({ directory: `${HASURA_PROJECT_DIR}metadata` });
    const keys = await db.pool.query<{ table_name: string; columns: string[] }>(
      `SELECT c.relname AS table_name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (k.conkey)
       WHERE k.contype = 'p' GROUP BY c.relname`,
    );
    primaryKeys = new Map(keys.rows.map((row) => [row.table_name, row.columns]));
    const viewRows = await db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public' WHERE c.relkind = 'v'`,
    );
    views = new Set(viewRows.rows.map((row) => row.name));
    engine = await startTestEngine(db.url, { directory: `${HASURA_PROJECT_DIR}metadata` });
  });
  afterAll(async () => {
    await engine?.close();
    await db?.dispose();
  });

  it('covers every tracked table', () => {
    expect(metadata.sources[0]!.tables.length).toBeGreaterThanOrEqual(13);
    for (const table of metadata.sources[0]!.tables) {
      if (views.has(table.table.name)) continue;
      expect(primaryKeys.get(table.table.name), `primary key of ${table.table.name}`).toEqual(
        expect.arrayContaining([expect.any(String)]),
      );
    }
  });

  it.each(ROLES)('gives %s exactly the operations the metadata grants', async (role) => {
    const mismatches: string[] = [];
    for (const table of metadata.sources[0]!.tables) {
      for (const operation of OPERATIONS) {
        const { body } = await engine.graphql(probe(table, operation), {
          headers: headersFor(role),
        });
        const denied = body.errors?.some((error) => DENIED.test(error.message)) ?? false;
        const otherError = body.errors?.find((error) => !DENIED.test(error.message));
        const expected = granted(table, role, operation);
        if (expected && denied) mismatches.push(`${role} should ${operation} ${table.table.name}`);
        if (!expected && !denied)
          mismatches.push(`${role} must not ${operation} ${table.table.name}`);
        // An allowed probe either answers or fails for a reason other than access (by_pk needs args).
        if (expected && otherError && operation !== 'select_by_pk')
          mismatches.push(`${role} ${operation} ${table.table.name}: ${otherError.message}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('lets services act as admin with the admin secret', async () => {
    const { body } = await engine.graphql('{ currencies_aggregate { aggregate { count } } }', {
      headers: { 'x-hasura-admin-secret': TEST_ADMIN_SECRET },
    });
    expect(body.data).toEqual({
      currencies_aggregate: { aggregate: { count: expect.any(Number) as number } },
    });
  });
});
