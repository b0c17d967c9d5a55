import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_MIGRATIONS_DIR, migrateUp } from '@app/engine/database';
import { DATABASE_REFUSALS } from '@app/shared/errors/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';

/*
 * The refusal codes clients branch on (decision 032) are the ones the database raises: read from
 * the functions every migration leaves behind, each RAISE whose message starts with a code and a
 * colon must be a check violation (the only kind the official engine shows a non-admin role with
 * its message) and its code must be in DATABASE_REFUSALS, and every code listed there must still
 * be raised somewhere.
 */

/**
 * A RAISE EXCEPTION whose message starts with `code:`, up to the end of its statement (past the
 * quoted message, which may hold semicolons).
 */
const CODED_RAISE = /RAISE EXCEPTION '([a-z][a-z0-9-]*):(?:[^']|'')*'[^;]*;/g;

describe.each(databaseTargets)('the database refusals on $name', (target) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await target.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
  });
  afterAll(async () => {
    await db.dispose();
  });

  it('are raised as check violations with the codes clients know, and no others', async () => {
    const { rows } = await db.pool.query<{ name: string; source: string }>(
      `SELECT n.nspname || '.' || p.proname AS name, p.prosrc AS source
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND p.prosrc LIKE '%RAISE EXCEPTION%'`,
    );
    const raised = new Set<string>();
    for (const { name, source } of rows) {
      for (const [statement, code] of source.matchAll(CODED_RAISE)) {
        raised.add(code!);
        expect(DATABASE_REFUSALS, `${name} raises ${code}`).toContain(code);
        expect(statement, `${name} raises ${code}`).toMatch(/ERRCODE = 'check_violation'/);
      }
    }
    expect([...raised].sort()).toEqual([...DATABASE_REFUSALS].sort());
  });
});
