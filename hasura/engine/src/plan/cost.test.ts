import { describe, expect, it } from 'vitest';

import { HasuraError } from '../errors.ts';

import { ASSUMED_LIST_ROWS, checkEstimatedRows, estimatedRows } from './cost.ts';
import type { FieldPlan, SelectArgs } from './ir.ts';
import type { RootPlan } from './root-plan.ts';
import { DEFAULT_LIMITS } from './limits.ts';

/** Plans reduced to what the estimate reads: kinds, limits and nesting. */
const args = (limit?: number): SelectArgs => ({
  where: { kind: 'true' },
  orderBy: [],
  limit,
  offset: undefined,
  distinctOn: undefined,
});
const column = { alias: 'id', kind: 'column' } as unknown as FieldPlan;
const array = (fields: FieldPlan[], limit?: number) =>
  ({ alias: 'a', kind: 'array', args: args(limit), fields }) as unknown as FieldPlan;
const object = (fields: FieldPlan[]) =>
  ({ alias: 'o', kind: 'object', fields }) as unknown as FieldPlan;
const select = (fields: FieldPlan[], limit?: number, permissionLimit?: number) =>
  ({
    alias: 's',
    kind: 'select',
    source: { permissionLimit },
    args: args(limit),
    fields,
  }) as unknown as RootPlan;

describe('the estimated rows of an operation', () => {
  it('multiplies each list by its limit, the role row limit, or the assumed size', () => {
    expect(estimatedRows([select([column])])).toBe(ASSUMED_LIST_ROWS);
    expect(estimatedRows([select([column], 5)])).toBe(5);
    expect(estimatedRows([select([column], 500, 20)])).toBe(20);
    // 3 rows, each with itself, an object and 4 nested rows: 3 * (1 + 1 + 4).
    expect(estimatedRows([select([object([column]), array([column], 4)], 3)])).toBe(18);
  });

  it('grows with lists within lists, as the fan-out does', () => {
    const fan = (depth: number): FieldPlan[] =>
      depth === 0 ? [column] : [object([array(fan(depth - 1))])];
    const three = estimatedRows([select(fan(2))]);
    expect(three).toBe(100 * (2 + 100 * (2 + 100)));
    expect(() => checkEstimatedRows([select(fan(1))], DEFAULT_LIMITS)).not.toThrow();
    expect(() => checkEstimatedRows([select(fan(2))], DEFAULT_LIMITS)).toThrow(HasuraError);
    expect(() => checkEstimatedRows([select(fan(2), 1)], DEFAULT_LIMITS)).not.toThrow();
  });

  it('counts a single row for lookups by key, actions and __typename', () => {
    expect(
      estimatedRows([
        { alias: 'k', kind: 'select_by_pk', fields: [column] } as unknown as RootPlan,
        { alias: 't', kind: 'typename', value: 'query_root' },
      ]),
    ).toBe(2);
  });
});
