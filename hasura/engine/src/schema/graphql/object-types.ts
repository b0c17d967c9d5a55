import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
} from 'graphql';

import {
  computedFieldOwnArguments,
  type ColumnField,
  type ComputedField,
  type RoleTable,
} from '../model.ts';
import { isJsonType, scalarName } from '../scalars.ts';

import type { RoleTypes } from './role-types.ts';
import {
  BUILT_IN_SCALARS,
  columnDescription,
  columnEnumValues,
  listOf,
  nonNull,
  quotedTable,
  SQL_TYPE_NAMES,
} from './shared.ts';

/* A table's object type as the role sees it (columns, relationships, computed fields) and the scalars. */

export function scalar(types: RoleTypes, name: string): GraphQLScalarType {
  return BUILT_IN_SCALARS[name] ?? types.once(name, () => new GraphQLScalarType({ name }));
}

export function columnScalar(types: RoleTypes, column: ColumnField): GraphQLScalarType {
  return scalar(types, column.scalar);
}

export function objectType(types: RoleTypes, entry: RoleTable): GraphQLObjectType {
  const { table } = entry;
  return types.once(
    table.typeName,
    () =>
      new GraphQLObjectType({
        name: table.typeName,
        description:
          table.metadata.configuration.comment ??
          table.info.description ??
          `columns and relationships of ${quotedTable(table)}`,
        fields: () => objectFields(types, entry),
      }),
  );
}

function objectFields(types: RoleTypes, entry: RoleTable): GraphQLFieldConfigMap<unknown, unknown> {
  const { table } = entry;
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const column of types.selectColumns(entry)) {
    const type = columnScalar(types, column);
    fields[column.name] = {
      type: column.column.nullable ? type : nonNull(type),
      description: columnDescription(table, column),
      ...(isJsonType(column.column.typeName) && {
        args: { path: { type: GraphQLString, description: 'JSON select path' } },
      }),
    };
  }
  for (const { relationship, target } of types.visibleRelationships(entry)) {
    if (relationship.kind === 'object') {
      const type = objectType(types, target);
      fields[relationship.name] = {
        type: relationship.nullable ? type : nonNull(type),
        description: 'An object relationship',
      };
      continue;
    }
    fields[relationship.name] = {
      type: nonNull(listOf(objectType(types, target))),
      args: types.selectArgs(target),
      description: 'An array relationship',
    };
    if (target.select.allowAggregations) {
      fields[`${relationship.name}_aggregate`] = {
        type: nonNull(types.aggregateType(target)),
        args: types.selectArgs(target),
        description: 'An aggregate relationship',
      };
    }
  }
  for (const { field: computed, scalar, target } of types.visibleComputedFields(entry)) {
    const args = computedFieldArgs(types, entry, computed);
    const description =
      table.metadata.computed_fields.find((field) => field.name === computed.name)?.comment ??
      undefined;
    if (scalar !== undefined) {
      fields[computed.name] = {
        type: types.scalar(scalar),
        ...(args && { args: { args } }),
        description,
      };
      continue;
    }
    if (!target) continue;
    fields[computed.name] = {
      type: computed.fn.returnsSet
        ? nonNull(listOf(objectType(types, target)))
        : objectType(types, target),
      args: { ...(args && { args }), ...types.selectArgs(target) },
      description,
    };
  }
  return fields;
}

/** The function's own arguments (all but the row and the session argument) as GraphQL scalars. */
export function computedFieldInputs(
  types: RoleTypes,
  computed: ComputedField,
): Array<{ name: string; scalar: string }> {
  return computedFieldOwnArguments(computed).map(({ name, sqlType }) => {
    const bare = sqlType.replace(/^[a-z_][a-z0-9_]*\./, '');
    const array = bare.endsWith('[]');
    const typeName =
      SQL_TYPE_NAMES[array ? bare.slice(0, -2) : bare] ?? (array ? bare.slice(0, -2) : bare);
    return { name, scalar: scalarName(array ? `_${typeName}` : typeName) };
  });
}

/** `args: <field>_<table>_args!` when the function takes more than the row and the session. */
function computedFieldArgs(
  types: RoleTypes,
  entry: RoleTable,
  computed: ComputedField,
): GraphQLFieldConfigArgumentMap[string] | undefined {
  const inputs = computedFieldInputs(types, computed);
  if (inputs.length === 0) return undefined;
  const typeName = `${computed.name}_${entry.table.typeName}_args`;
  const input = types.once(
    typeName,
    () =>
      new GraphQLInputObjectType({
        name: typeName,
        fields: () =>
          Object.fromEntries(inputs.map((arg) => [arg.name, { type: scalar(types, arg.scalar) }])),
      }),
  );
  return {
    type: nonNull(input),
    description: `input parameters for computed field ${JSON.stringify(computed.name)} defined on table ${quotedTable(entry.table)}`,
  };
}

export function selectColumnEnum(types: RoleTypes, entry: RoleTable): GraphQLEnumType | undefined {
  const columns = types.selectColumns(entry);
  if (columns.length === 0) return undefined;
  const name = `${entry.table.typeName}_select_column`;
  return types.once(
    name,
    () =>
      new GraphQLEnumType({
        name,
        description: `select columns of table ${quotedTable(entry.table)}`,
        values: columnEnumValues(columns),
      }),
  );
}
