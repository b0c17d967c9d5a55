import fc from 'fast-check';

import type { ArgValue } from './query.ts';
import type { TableModel } from './schema-model.ts';

/*
 * The values operations carry: a column's own values from the data (hidden rows included, so
 * filters ask about rows the role may not see), else any value of its type, else a fixed
 * fallback; and the operands of every comparison operator, patterns made from those values.
 */

export interface Pools {
  /** Values of `<table>.<field>` in the full database, every row (as the admin reads them). */
  byField: Map<string, ArgValue[]>;
  /** Values of every field of a GraphQL scalar type. */
  byScalar: Map<string, ArgValue[]>;
}

const FALLBACK: Record<string, ArgValue[]> = {
  String: ['x', 'stranger'],
  Int: [0, 1, 2],
  smallint: [0, 1],
  bigint: ['100001', '100005'],
  numeric: ['0', '1', '1000'],
  Float: [1.5],
  Boolean: [true, false],
  uuid: ['00000000-0000-0000-0000-000000000000'],
  timestamptz: ['2026-02-01T00:00:00+00:00'],
  time: ['10:00:00'],
  date: ['2026-02-01'],
};

/** A column's GraphQL scalar type (String when the role's model does not say). */
export const scalarOf = (table: TableModel, name: string) =>
  table.scalars.find((scalar) => scalar.name === name)?.scalar ?? 'String';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const escapeSimilar = (text: string) => text.replace(/[|*+?{}()[\]\\%_]/g, '\\$&');

/** A pattern for `op` made from a value: exact, prefix, suffix, middle, one wildcard. */
function pattern(op: string, value: string, a: number, b: number, shape: number): string {
  const cut = value.length === 0 ? 0 : a % (value.length + 1);
  const end = value.length === 0 ? 0 : cut + (b % (value.length - cut + 1));
  const prefix = value.slice(0, cut);
  const middle = value.slice(cut, end);
  const suffix = value.slice(end);
  const like = op.includes('like');
  const similar = op.includes('similar');
  const regex = op.includes('regex');
  const caseOf = (text: string) =>
    op.includes('ilike') || op.includes('iregex') ? (shape % 2 ? text.toUpperCase() : text) : text;
  let result: string;
  if (like) {
    const shapes = [
      value,
      `${prefix}%`,
      `%${suffix}`,
      `%${middle}%`,
      value.length > 0 ? `${value.slice(0, cut)}_${value.slice(cut + 1)}` : '_',
      '%',
    ];
    result = caseOf(shapes[shape % shapes.length]!);
  } else if (similar) {
    const shapes = [
      escapeSimilar(value),
      `${escapeSimilar(prefix)}%`,
      `%${escapeSimilar(middle)}%`,
      `(${escapeSimilar(prefix)}|${escapeSimilar(suffix)})%`,
    ];
    result = shapes[shape % shapes.length]!;
  } else if (regex) {
    const shapes = [
      `^${escapeRegex(prefix)}`,
      `${escapeRegex(suffix)}$`,
      escapeRegex(middle),
      `^${escapeRegex(value)}$`,
      `^(${escapeRegex(prefix)}|${escapeRegex(suffix)})`,
    ];
    result = caseOf(shapes[shape % shapes.length]!);
  } else result = value;
  return result.slice(0, 120);
}

export function valuesOf(pools: Pools, table: string, field: string, scalar: string): ArgValue[] {
  const own = pools.byField.get(`${table}.${field}`) ?? [];
  const same = pools.byScalar.get(scalar) ?? [];
  const values = own.length > 0 ? own : same.length > 0 ? same : (FALLBACK[scalar] ?? ['x']);
  return values;
}

/** A value for a column: its own values mostly, sometimes any value of its type. */
function valueArb(
  pools: Pools,
  table: string,
  field: string,
  scalar: string,
): fc.Arbitrary<ArgValue> {
  const own = valuesOf(pools, table, field, scalar);
  const same = pools.byScalar.get(scalar) ?? own;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(...(same.length > 0 ? same : own)) },
  );
}

/** The operand of `op` (its input type printed, e.g. `[uuid!]`) for a column. */
export function operandArb(
  pools: Pools,
  table: string,
  field: string,
  scalar: string,
  op: string,
  type: string,
): fc.Arbitrary<ArgValue> {
  const base = type.replace(/[[\]!]/g, '');
  if (op === '_is_null' || (base === 'Boolean' && scalar !== 'Boolean')) return fc.boolean();
  if (type.startsWith('['))
    return fc.array(valueArb(pools, table, field, base === scalar ? scalar : base), {
      maxLength: 3,
    });
  if (/like|similar|regex/.test(op)) {
    const strings = valuesOf(pools, table, field, scalar).filter(
      (value): value is string => typeof value === 'string',
    );
    const source = strings.length > 0 ? strings : ['x'];
    return fc
      .tuple(fc.constantFrom(...source), fc.nat(64), fc.nat(64), fc.nat(12))
      .map(([value, a, b, shape]) => pattern(op, value, a, b, shape));
  }
  return valueArb(pools, table, field, base === scalar ? scalar : base);
}
