import type { ActionPlan } from '../actions/plan.ts';
import type { BoolExp } from '../schema/model.ts';

import type { AggregatePlan, FieldPlan, MutationPlan, SelectArgs, TableSource } from './ir.ts';

/*
 * One root field of an operation, planned: the unit the SQL compiler and the executor work on.
 * Kept apart from the rest of the plan because an action's plan nests table selections.
 */

/** One root field, planned. */
export type RootPlan =
  | { alias: string; kind: 'typename'; value: string }
  | { alias: string; kind: 'introspection' }
  | { alias: string; kind: 'select'; source: TableSource; args: SelectArgs; fields: FieldPlan[] }
  | {
      alias: string;
      kind: 'select_by_pk';
      source: TableSource;
      where: BoolExp;
      fields: FieldPlan[];
    }
  | {
      alias: string;
      kind: 'select_aggregate';
      source: TableSource;
      args: SelectArgs;
      aggregate: AggregatePlan;
    }
  | { alias: string; kind: 'action'; plan: ActionPlan }
  | MutationPlan;
