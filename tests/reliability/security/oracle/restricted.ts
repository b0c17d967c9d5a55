import { fileURLToPath } from 'node:url';

import type pg from 'pg';

import { createEngine, type Engine } from '@app/engine';
import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '@app/engine/database';

import type { DatabaseTarget, TestDatabase } from '../../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../../support/engine.ts';
import { DEV_JWT_SECRET } from '../../../support/jwt.ts';

import { ident, visibleSql, type PermissionContext } from './metadata.ts';

/*
 * The reference for property (a): a database holding only the rows a role's select permission
 * admits (each computed once on the full database by the oracle's own SQL, metadata.ts), served
 * by an engine of its own, asked as admin. An answer computed there cannot depend on a row the
 * role may not see, whatever the query does: filters, relationships in both directions,
 * order_by through relationships and aggregates, distinct_on, aggregates, limits.
 *
 * Three things are not rows of a table and are carried over as the full database answers them:
 * - views (affiliate_statistics, referral_history, transaction_status_counts) compute from
 *   rows the role may not see (a referral's orders): each becomes a table holding the view's
 *   admitted rows as the full database computes them;
 * - scalar computed fields (queue_position counts every waiting order ahead, by design): each
 *   function is replaced by a lookup of its value on the full database, per admitted row;
 * - the copy is made with triggers and foreign-key checks off (session_replication_role), since
 *   an admitted row may refer to one that is not (an order in a disabled currency).
 */

const METADATA_DIR = fileURLToPath(new URL('../../../../hasura/metadata/', import.meta.url));

export interface ReferenceEngine {
  url: string;
  db: TestDatabase | undefined;
  close(): Promise<void>;
}

async function copyRows(
  full: pg.Pool,
  client: pg.PoolClient,
  ctx: PermissionContext,
  role: string,
): Promise<void> {
  for (const table of ctx.tables.keys()) {
    const catalog = ctx.catalog.get(table)!;
    // As text: numbers keep their digits and scale (pg would parse JSON into JS numbers).
    const { rows } = await full.query<{ rows: string }>(
      `SELECT coalesce(json_agg(to_jsonb(r)), '[]')::text AS rows FROM public.${ident(table)} AS r WHERE ${visibleSql(ctx, table, role, 'r')}`,
    );
    const data = rows[0]!.rows;
    if (catalog.isView) {
      const original = `${table}__oracle_view`;
      await client.query(`ALTER VIEW public.${ident(table)} RENAME TO ${ident(original)}`);
      await client.query(
        `CREATE TABLE public.${ident(table)} (LIKE public.${ident(original)}); DROP VIEW public.${ident(original)}`,
      );
      await client.query(
        `INSERT INTO public.${ident(table)} SELECT * FROM jsonb_populate_recordset(NULL::public.${ident(table)}, $1::jsonb)`,
        [data],
      );
      continue;
    }
    const columns = catalog.columns.filter((column) => !column.generated).map((c) => ident(c.name));
    await client.query(`DELETE FROM public.${ident(table)}`);
    await client.query(
      `INSERT INTO public.${ident(table)} (${columns.join(', ')}) OVERRIDING SYSTEM VALUE
       SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::public.${ident(table)}, $1::jsonb)`,
      [data],
    );
  }
}

async function freezeComputedFields(
  full: pg.Pool,
  client: pg.PoolClient,
  ctx: PermissionContext,
  role: string,
): Promise<void> {
  for (const table of ctx.tables.values()) {
    for (const field of table.computedFields) {
      const { rows: signature } = await full.query<{
        args: string;
        result: string;
        nargs: number;
      }>(
        `SELECT pg_get_function_arguments(p.oid) AS args, pg_get_function_result(p.oid) AS result,
                p.pronargs AS nargs
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'public' AND p.proname = $1`,
        [field.function],
      );
      const fn = signature[0];
      const pk = ctx.catalog.get(table.name)!.primaryKey;
      if (signature.length !== 1 || fn!.nargs !== 1 || pk.length !== 1)
        throw new Error(
          `the oracle freezes computed fields of one argument on tables with a one-column key; ${field.function} is not one`,
        );
      const lookup = `oracle_computed_${field.function}`;
      const key = pk[0]!;
      const { rows } = await full.query<{ rows: string }>(
        `SELECT coalesce(json_agg(json_build_object('key', r.${ident(key)}, 'value', public.${ident(field.function)}(r))), '[]')::text AS rows
           FROM public.${ident(table.name)} AS r WHERE ${visibleSql(ctx, table.name, role, 'r')}`,
      );
      const keyType = ctx.catalog.get(table.name)!.columns.find((c) => c.name === key)!.type;
      await client.query(
        `CREATE TABLE public.${ident(lookup)} (key ${keyType} PRIMARY KEY, value ${fn!.result})`,
      );
      await client.query(
        `INSERT INTO public.${ident(lookup)} SELECT key, value
           FROM jsonb_to_recordset($1::jsonb) AS x(key ${keyType}, value ${fn!.result})`,
        [rows[0]!.rows],
      );
      await client.query(
        `CREATE OR REPLACE FUNCTION public.${ident(field.function)}(${fn!.args}) RETURNS ${fn!.result}
           LANGUAGE sql STABLE AS $$ SELECT value FROM public.${ident(lookup)} WHERE key = ($1).${ident(key)} $$`,
      );
    }
  }
}

/**
 * An engine over a copy of `full` holding only what `role` may select, asked with the admin
 * secret. A role that sees every row of every table it may select needs no copy: the full
 * database's own engine (`fullUrl`) answers as admin.
 */
export async function startReferenceEngine(
  target: DatabaseTarget,
  full: pg.Pool,
  ctx: PermissionContext,
  role: string,
): Promise<ReferenceEngine> {
  const db = await target.create();
  let engine: Engine | undefined;
  try {
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL session_replication_role = replica');
      await copyRows(full, client, ctx, role);
      await freezeComputedFields(full, client, ctx, role);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    engine = await createEngine({
      databaseUrl: db.url,
      metadata: { directory: METADATA_DIR },
      adminSecret: TEST_ADMIN_SECRET,
      jwtSecret: DEV_JWT_SECRET,
      unauthorizedRole: 'anonymous',
      poolSize: 4,
      environment: {
        ACTIONS_BASE_URL: 'http://127.0.0.1:9',
        ACTIONS_SECRET: 'unused-oracle-secret',
      },
    });
    const { url } = await engine.listen(0);
    const started = engine;
    return {
      url,
      db,
      async close() {
        await started.close();
        await db.dispose();
      },
    };
  } catch (error) {
    await engine?.close().catch(() => {});
    await db.dispose().catch(() => {});
    throw error;
  }
}
