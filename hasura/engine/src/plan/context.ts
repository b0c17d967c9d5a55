import type { FragmentDefinitionNode } from 'graphql';

import type { Session } from '../auth/session.ts';
import type { ColumnInfo } from '../catalog/model.ts';
import type {
  BoolExp,
  ComputedField,
  RoleSchema,
  RoleTable,
  SchemaModel,
  TableSchema,
} from '../schema/model.ts';

import type { OperationGate } from './allowlist.ts';
import type { BoolExpContext } from './bool-exp.ts';
import type { RelationshipHop } from './ir.ts';
import { DEFAULT_LIMITS, type OperationLimits } from './limits.ts';
import type { Variables } from './values.ts';
import type { VariableBindings } from './variable-bindings.ts';

/** Everything the planner needs while it walks one operation. */
export interface PlanContext {
  model: SchemaModel;
  schema: RoleSchema;
  session: Session;
  variables: Variables;
  fragments: Map<string, FragmentDefinitionNode>;
  stringifyNumericTypes: boolean;
  /** Bounds on depth and size of an operation; defaults to DEFAULT_LIMITS. */
  limits?: OperationLimits;
  /** The allow-list and introspection rule (plan/allowlist.ts); none: everything passes. */
  gate?: OperationGate | undefined;
  /** Records which variables become parameters only (plan/variable-bindings.ts). */
  bindings?: VariableBindings | undefined;
}

export function roleTableOf(ctx: PlanContext, table: TableSchema): RoleTable | undefined {
  return ctx.schema.tables.get(table.key);
}

/** The role's select filter for a table, or undefined when it may not select it. */
export function selectFilterOf(ctx: PlanContext, table: TableSchema): BoolExp | undefined {
  return roleTableOf(ctx, table)?.select?.filter;
}

/** The context for parsing a request's `where` as this role. */
export function requestBoolExpContext(ctx: PlanContext): BoolExpContext {
  return {
    mode: 'request',
    tables: ctx.model.tables,
    canSeeColumn: (table, column) => roleTableOf(ctx, table)?.select?.columns.has(column) ?? false,
    selectFilter: (table) => selectFilterOf(ctx, table),
    canSeeComputedField: (table, field) => canUseComputedField(ctx, table, field),
    maxPatternLength: (ctx.limits ?? DEFAULT_LIMITS).maxPatternLength,
    bindings: ctx.bindings,
  };
}

/**
 * Scalar computed fields must be listed in the role's select permission; one returning rows
 * of a table needs only select permission on that table (as in Hasura).
 */
export function canUseComputedField(
  ctx: PlanContext,
  table: TableSchema,
  field: ComputedField,
): boolean {
  const entry = roleTableOf(ctx, table);
  if (!entry?.select) return false;
  if ('scalar' in field.returns) return entry.select.computedFields.has(field.name);
  const returned = ctx.model.tables.get(field.returns.table);
  return returned !== undefined && roleTableOf(ctx, returned)?.select !== undefined;
}

/** A column of the table the role may select, by GraphQL name. */
export function selectableColumn(entry: RoleTable, name: string): ColumnInfo | undefined {
  const field = entry.table.columns.get(name);
  return field && entry.select?.columns.has(field.column.name) ? field.column : undefined;
}

/** The hop to a relationship's target, when the role may select from it (with its filter). */
export function hopTo(
  ctx: PlanContext,
  table: TableSchema,
  relationshipName: string,
): RelationshipHop | undefined {
  const relationship = table.relationships.get(relationshipName);
  if (!relationship) return undefined;
  const target = ctx.model.tables.get(relationship.target)!;
  const permission = roleTableOf(ctx, target)?.select?.filter;
  if (!permission) return undefined;
  return { relationship, target, permission };
}
