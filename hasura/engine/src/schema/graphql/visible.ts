import type { ColumnField, ComputedField, RoleTable } from '../model.ts';

import type { RoleTypes } from './role-types.ts';
import { columnsIn, type SelectableTable, type VisibleComputedField } from './shared.ts';

/* What the role can see of a table: selectable tables, columns, computed fields, relationships. */

/** The role's entry for a table when it may select from it (and there is a field to show). */
export function selectable(types: RoleTypes, key: string): SelectableTable | undefined {
  const entry = types.role.tables.get(key);
  if (!entry?.select) return undefined;
  const hasField = entry.select.columns.size > 0 || scalarComputedFields(types, entry).length > 0;
  return hasField ? (entry as SelectableTable) : undefined;
}

export function selectColumns(types: RoleTypes, entry: RoleTable): ColumnField[] {
  return entry.select ? columnsIn(entry.table, entry.select.columns) : [];
}

function scalarComputedFields(types: RoleTypes, entry: RoleTable): ComputedField[] {
  return [...entry.table.computedFields.values()].filter(
    (field) => 'scalar' in field.returns && entry.select?.computedFields.has(field.name),
  );
}

/**
 * Computed fields the role may use (plan/context.ts `canUseComputedField`): scalar ones
 * listed in its select permission, table ones whose table it may select.
 */
export function visibleComputedFields(types: RoleTypes, entry: RoleTable): VisibleComputedField[] {
  if (!entry.select) return [];
  const permitted = entry.select.computedFields;
  return [...entry.table.computedFields.values()].flatMap((field): VisibleComputedField[] => {
    if ('scalar' in field.returns) {
      return permitted.has(field.name)
        ? [{ field, scalar: field.returns.scalar, target: undefined }]
        : [];
    }
    const target = selectable(types, field.returns.table);
    return target ? [{ field, scalar: undefined, target }] : [];
  });
}

/** Hasura filters and orders only by computed fields that take no arguments of their own. */
export function argumentFree(types: RoleTypes, computed: ComputedField): boolean {
  return types.computedFieldInputs(computed).length === 0;
}

/** Relationships whose target the role may select. */
export function visibleRelationships(types: RoleTypes, entry: RoleTable) {
  return [...entry.table.relationships.values()].flatMap((relationship) => {
    const target = selectable(types, relationship.target);
    return target ? [{ relationship, target }] : [];
  });
}
