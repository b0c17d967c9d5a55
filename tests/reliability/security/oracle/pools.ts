import type { ArgValue } from './query.ts';
import type { Pools } from './generate.ts';
import type { RoleModel } from './schema-model.ts';

/*
 * Values to filter with, read as admin from the full database: every row, hidden ones
 * included, so that a generated filter asks about the stranger's e-mail as often as about the
 * user's own. Bounded per field; nulls left out (`_eq: null` is no condition in Hasura).
 */

const PER_FIELD = 40;
const PER_SCALAR = 80;

export async function loadPools(
  adminModel: RoleModel,
  adminGraphql: (query: string) => Promise<Record<string, unknown>>,
): Promise<Pools> {
  const byField = new Map<string, ArgValue[]>();
  const byScalar = new Map<string, ArgValue[]>();
  for (const [field, table] of adminModel.query.select) {
    const model = adminModel.tables.get(table)!;
    const scalars = model.scalars;
    if (scalars.length === 0) continue;
    const data = await adminGraphql(
      `{ rows: ${field}(limit: 1000) { ${scalars.map((scalar) => scalar.name).join(' ')} } }`,
    );
    const rows = data['rows'] as Array<Record<string, ArgValue>>;
    for (const scalar of scalars) {
      const seen = new Map<string, ArgValue>();
      for (const row of rows) {
        const value = row[scalar.name];
        if (value === null || value === undefined || typeof value === 'object') continue;
        seen.set(JSON.stringify(value), value);
      }
      // Keep the first and the last values of a long list (seed rows and the oracle's own).
      const values = [...seen.values()];
      const kept =
        values.length > PER_FIELD
          ? [...values.slice(0, PER_FIELD / 2), ...values.slice(-PER_FIELD / 2)]
          : values;
      if (kept.length === 0) continue;
      byField.set(`${table}.${scalar.name}`, kept);
      const pool = byScalar.get(scalar.scalar) ?? [];
      for (const value of kept)
        if (pool.length < PER_SCALAR && !pool.some((item) => item === value)) pool.push(value);
      byScalar.set(scalar.scalar, pool);
    }
  }
  return { byField, byScalar };
}
