import type pg from 'pg';

import type { Session } from '../auth/session.ts';
import { toHasuraError } from '../execute/pg-errors.ts';
import { ident, SqlBuilder, stringLiteral } from '../sql/builder.ts';
import { rowJson } from '../sql/select.ts';

import type { RelationshipRequests } from './response.ts';

/*
 * Relationships from an action's output to tables, answered in one statement. For each
 * relationship field of the selection, the key values of every webhook object that has them
 * go in as one jsonb parameter, read back as a typed recordset (`jsonb_to_recordset`), so the
 * relationship compiles exactly like a table relationship (sql/select.ts), with the role's
 * select permission on the target. Each object's value comes back as its own JSON text, in
 * order, and is spliced into the response unparsed (numbers stay exact).
 */

export interface RelationshipQueryContext {
  pool: Pick<pg.Pool, 'query'>;
  session: Session;
  stringifyNumericTypes: boolean;
}

/** One column per relationship field: its value for each object, as JSON texts in order. */
function compileRelationships(requests: RelationshipRequests, b: SqlBuilder): string {
  const columns = [...requests].map(([relationship, slots], i) => {
    const row = b.alias();
    const records = slots.map((slot, ord) => ({
      ...Object.fromEntries(relationship.keys.map((key, j) => [key.keyColumn, slot.keys[j]])),
      __ord: ord,
    }));
    const definition = [
      ...relationship.keys.map((key) => `${ident(key.keyColumn)} ${key.sqlType}`),
      `"__ord" integer`,
    ].join(', ');
    const value = `(${rowJson([relationship.plan], row, b)} -> ${stringLiteral(relationship.plan.alias)})::text`;
    const from = `jsonb_to_recordset(${b.param(JSON.stringify(records), 'jsonb')}) AS ${row}(${definition})`;
    return `(SELECT array_agg(${value} ORDER BY ${row}."__ord") FROM ${from}) AS ${ident(`r${i}`)}`;
  });
  return `SELECT ${columns.join(', ')}`;
}

/** Fills every slot in `requests` from the database. */
export async function fetchRelationships(
  requests: RelationshipRequests,
  ctx: RelationshipQueryContext,
): Promise<void> {
  if (requests.size === 0) return;
  const b = new SqlBuilder(ctx.session, ctx.stringifyNumericTypes);
  const sql = compileRelationships(requests, b);
  let row: Record<string, Array<string | null> | null>;
  try {
    const result = await ctx.pool.query<Record<string, Array<string | null> | null>>(sql, b.params);
    row = result.rows[0] ?? {};
  } catch (error) {
    throw toHasuraError(error, '$');
  }
  [...requests.values()].forEach((slots, i) => {
    const values = row[`r${i}`] ?? [];
    slots.forEach((slot, j) => {
      slot.slot.text = values[j] ?? 'null';
    });
  });
}
