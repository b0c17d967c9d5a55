import type pg from 'pg';

import { listTables } from '../../support/schema.ts';

/*
 * "Nothing written": every product table (public, auth, bot) as a row count and an md5 of its
 * rows (to_jsonb, sorted), taken before and after a fuzz run and compared.
 */

/**
 * Tables that change without any request: the refresh_rates cron trigger re-stamps
 * `rates.fetched_at` every minute and rewrites each offline price in its canonical form
 * (`65000.00` becomes `65000`), so `rates` is compared by its rows and their prices as numbers.
 */
const ROW_EXPRESSIONS: Record<string, string> = {
  'public.rates': `jsonb_build_object('currency_code', t.currency_code, 'provider', t.provider,
                                      'price_usdt', trim_scale(t.price_usdt))`,
};

export interface TableState {
  rows: number;
  md5: string;
}

export type Snapshot = Record<string, TableState>;

const quoted = (name: string) =>
  name
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');

/** Row count and checksum of every product table. */
export async function snapshotTables(pool: pg.Pool): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const table of await listTables(pool)) {
    const row = ROW_EXPRESSIONS[table] ?? 'to_jsonb(t)';
    const { rows } = await pool.query<{ rows: number; md5: string }>(
      `SELECT count(*)::int AS rows,
              md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) AS md5
         FROM (SELECT (${row})::text AS r FROM ${quoted(table)} t) s`,
    );
    snapshot[table] = rows[0]!;
  }
  return snapshot;
}

/** The tables whose rows differ between two snapshots, with their counts before and after. */
export function changedTables(
  before: Snapshot,
  after: Snapshot,
  exclude: ReadonlySet<string> = new Set(),
): Record<string, { before: TableState | undefined; after: TableState | undefined }> {
  const changed: Record<string, { before: TableState | undefined; after: TableState | undefined }> =
    {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (exclude.has(table)) continue;
    const a = before[table];
    const b = after[table];
    if (a?.rows !== b?.rows || a?.md5 !== b?.md5) changed[table] = { before: a, after: b };
  }
  return changed;
}
