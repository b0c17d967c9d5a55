import { HasuraError } from '../errors.ts';

import type { AggregatePlan, FieldPlan, MutationOutput, SelectArgs } from './ir.ts';
import type { RootPlan } from './root-plan.ts';
import type { OperationLimits } from './limits.ts';

/*
 * How many rows (JSON objects) an operation may make the database build, estimated from its
 * plan before it runs: each list multiplies what it holds by its `limit` (or the role's row
 * limit), or by ASSUMED_LIST_ROWS when nothing bounds it. The depth and fields limits do not
 * see fan-out: `exchange_directions { to_currency_info { directions_to { to_currency_info {
 * directions_from { id } } } } }` is five levels and one field, yet 20 MB of JSON in 2 s, and
 * two levels more ran for minutes on PostgreSQL and exhausted PGlite's memory (issue 11).
 */

/** What an unbounded list is assumed to hold. */
export const ASSUMED_LIST_ROWS = 100;

const rowsOf = (args: SelectArgs | undefined, permissionLimit?: number): number => {
  const bounds = [args?.limit, permissionLimit].filter((bound) => bound !== undefined);
  return bounds.length > 0 ? Math.min(...bounds) : ASSUMED_LIST_ROWS;
};

function fieldsCost(fields: FieldPlan[] | undefined): number {
  let total = 0;
  for (const field of fields ?? []) {
    switch (field.kind) {
      case 'object':
        total += 1 + fieldsCost(field.fields);
        break;
      case 'array':
        total += rowsOf(field.args) * (1 + fieldsCost(field.fields));
        break;
      case 'array_aggregate':
        total += aggregateCost(field.aggregate, rowsOf(field.args));
        break;
      case 'computed':
        if (field.fields) total += rowsOf(field.args) * (1 + fieldsCost(field.fields));
        break;
      default:
        break;
    }
  }
  return total;
}

function aggregateCost(plan: AggregatePlan, rows: number): number {
  let total = 1;
  for (const field of plan.fields)
    if (field.kind === 'nodes') total += rows * (1 + fieldsCost(field.fields));
  return total;
}

function outputCost(output: MutationOutput, rows: number): number {
  if (output.kind === 'one') return 1 + fieldsCost(output.fields);
  let total = 1;
  for (const field of output.fields)
    if (field.kind === 'returning') total += rows * (1 + fieldsCost(field.fields));
  return total;
}

/** The estimate for a planned operation (see above). */
export function estimatedRows(roots: RootPlan[]): number {
  let total = 0;
  for (const root of roots) {
    switch (root.kind) {
      case 'select':
        total += rowsOf(root.args, root.source.permissionLimit) * (1 + fieldsCost(root.fields));
        break;
      case 'select_by_pk':
        total += 1 + fieldsCost(root.fields);
        break;
      case 'select_aggregate':
        total += aggregateCost(root.aggregate, rowsOf(root.args, root.args.nodesLimit));
        break;
      case 'insert':
        total += outputCost(root.output, root.rows.length);
        break;
      case 'update':
      case 'delete':
        total += outputCost(root.output, ASSUMED_LIST_ROWS);
        break;
      default:
        total += 1;
    }
  }
  return total;
}

/** Refuses an operation whose estimate is over the limit, before anything runs. */
export function checkEstimatedRows(roots: RootPlan[], limits: OperationLimits): void {
  const estimate = estimatedRows(roots);
  if (estimate > limits.maxEstimatedRows) {
    throw new HasuraError(
      'validation-failed',
      `the operation may return about ${Math.round(estimate)} rows, more than the ${limits.maxEstimatedRows} allowed: bound its lists with "limit"`,
      '$',
    );
  }
}
