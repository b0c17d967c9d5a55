import { HasuraError } from '../errors.ts';
import { roleTableOf, type PlanContext } from '../plan/context.ts';
import type { FieldPlan, RelationshipHop } from '../plan/ir.ts';
import {
  parseAggregateSelection,
  parseSelectArgs,
  parseTableSelection,
  SELECT_ARGUMENTS,
} from '../plan/select.ts';
import {
  collectFields,
  expectLeaf,
  expectSelectionSet,
  type CollectedField,
} from '../plan/selection.ts';
import { valueFromAst } from '../plan/values.ts';
import type { RelationshipField, TableSchema } from '../schema/model.ts';

import {
  baseName,
  type CustomRelationship,
  type OutputObjectType,
  type TypeCatalog,
  type TypeRef,
} from './types.ts';

/*
 * The selection set of an action field, checked against its output type: fields of custom
 * object types (nested to any depth), `__typename`, and relationships from custom object
 * types to tracked tables, which are parsed like table relationships (so the role's select
 * permissions, column access and `_aggregate` rules apply) and answered from the database.
 */

/** How the webhook's value for one output position becomes the response. */
export type OutputSelection =
  { kind: 'leaf' } | { kind: 'object'; typeName: string; fields: OutputField[] };

export type OutputField =
  | { alias: string; kind: 'typename'; value: string }
  /** A scalar or enum field of a custom object: copied from the webhook response. */
  | { alias: string; kind: 'value'; name: string }
  /** A field whose type is a custom object type (or a list of them). */
  | {
      alias: string;
      kind: 'object';
      name: string;
      selection: Extract<OutputSelection, { kind: 'object' }>;
    }
  | { alias: string; kind: 'relationship'; relationship: PlannedRelationship };

/** A relationship from the webhook's objects to a table, ready to be compiled. */
export interface PlannedRelationship {
  /** Webhook field -> the column it matches, with the column's SQL type for the key recordset. */
  keys: Array<{ field: string; keyColumn: string; sqlType: string }>;
  /** The relationship as the SQL compiler sees it, on a recordset of keys. */
  plan: FieldPlan;
}

/** Arguments of a field that must have none but those allowed; Hasura reports the field's path. */
function argumentsOf(
  field: CollectedField,
  allowed: readonly string[],
  ctx: PlanContext,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const argument of field.node.arguments ?? []) {
    const name = argument.name.value;
    if (!allowed.includes(name)) {
      throw new HasuraError(
        'validation-failed',
        `'${field.name}' has no argument named '${name}'`,
        field.path,
      );
    }
    const value = valueFromAst(argument.value, ctx.variables);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

function planRelationship(
  ctx: PlanContext,
  relationship: CustomRelationship,
  target: TableSchema,
  field: CollectedField,
  aggregate: boolean,
): PlannedRelationship | undefined {
  const entry = roleTableOf(ctx, target);
  const select = entry?.select;
  if (!entry || !select) return undefined;
  if (aggregate && !select.allowAggregations) return undefined;
  const keys = relationship.fieldMapping.map(([actionField, columnName], i) => {
    const column = target.columnsBySql.get(columnName);
    if (!column) {
      throw new HasuraError(
        'unexpected',
        `relationship ${relationship.name}: column ${columnName} not found in ${target.key}`,
        field.path,
        500,
      );
    }
    return { field: actionField, keyColumn: `k${i}`, sqlType: column.column.sqlType };
  });
  const synthetic: RelationshipField = {
    kind: relationship.type,
    name: relationship.name,
    target: target.key,
    mapping: keys.map((key, i) => [key.keyColumn, relationship.fieldMapping[i]![1]]),
    nullable: true,
  };
  const hop: RelationshipHop = { relationship: synthetic, target, permission: select.filter };
  if (aggregate) {
    const args = parseSelectArgs(ctx, entry, argumentsOf(field, SELECT_ARGUMENTS, ctx), field.path);
    return {
      keys,
      plan: {
        alias: field.alias,
        kind: 'array_aggregate',
        hop,
        args,
        aggregate: parseAggregateSelection(ctx, entry, field),
      },
    };
  }
  if (relationship.type === 'object') {
    argumentsOf(field, [], ctx);
    return {
      keys,
      plan: {
        alias: field.alias,
        kind: 'object',
        hop,
        fields: parseTableSelection(ctx, entry, field),
      },
    };
  }
  const args = parseSelectArgs(ctx, entry, argumentsOf(field, SELECT_ARGUMENTS, ctx), field.path);
  return {
    keys,
    plan: {
      alias: field.alias,
      kind: 'array',
      hop,
      args,
      fields: parseTableSelection(ctx, entry, field),
    },
  };
}

function relationshipField(
  ctx: PlanContext,
  object: OutputObjectType,
  field: CollectedField,
): OutputField | undefined {
  let relationship = object.relationships.get(field.name);
  let aggregate = false;
  if (!relationship && field.name.endsWith('_aggregate')) {
    relationship = object.relationships.get(field.name.slice(0, -'_aggregate'.length));
    aggregate = relationship?.type === 'array';
    if (!aggregate) relationship = undefined;
  }
  if (!relationship) return undefined;
  const target = ctx.model.tables.get(relationship.remoteTable);
  if (!target) return undefined;
  const planned = planRelationship(ctx, relationship, target, field, aggregate);
  return planned && { alias: field.alias, kind: 'relationship', relationship: planned };
}

function planObject(
  ctx: PlanContext,
  catalog: TypeCatalog,
  object: OutputObjectType,
  field: CollectedField,
): Extract<OutputSelection, { kind: 'object' }> {
  const selectionSet = expectSelectionSet(field, object.name);
  const fields = collectFields(selectionSet, object.name, ctx, field.path, field.fragmentStack).map(
    (sub): OutputField => {
      if (sub.name === '__typename') {
        argumentsOf(sub, [], ctx);
        expectLeaf(sub);
        return { alias: sub.alias, kind: 'typename', value: object.name };
      }
      const type = object.fields.get(sub.name);
      if (type) {
        argumentsOf(sub, [], ctx);
        const nested = catalog.objects.get(baseName(type));
        if (nested)
          return {
            alias: sub.alias,
            kind: 'object',
            name: sub.name,
            selection: planObject(ctx, catalog, nested, sub),
          };
        expectLeaf(sub);
        return { alias: sub.alias, kind: 'value', name: sub.name };
      }
      const relationship = relationshipField(ctx, object, sub);
      if (relationship) return relationship;
      throw new HasuraError(
        'validation-failed',
        `field '${sub.name}' not found in type: '${object.name}'`,
        sub.path,
      );
    },
  );
  return { kind: 'object', typeName: object.name, fields };
}

/** Checks the action field's selection set against its output type. */
export function planOutput(
  ctx: PlanContext,
  catalog: TypeCatalog,
  outputType: TypeRef,
  field: CollectedField,
): OutputSelection {
  const object = catalog.objects.get(baseName(outputType));
  if (object) return planObject(ctx, catalog, object, field);
  expectLeaf(field);
  return { kind: 'leaf' };
}
