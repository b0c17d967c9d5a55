import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';

import type { ColumnField, RoleTable } from '../model.ts';
import { isNumericType } from '../scalars.ts';

import type { RoleTypes } from './role-types.ts';
import {
  columnDescription,
  columnEnumValues,
  JSONB_OPERATORS,
  listOf,
  nonNull,
  plainTable,
  quotedTable,
  writableColumns,
  type JsonbOperator,
} from './shared.ts';

/* Mutation inputs and outputs: insert, set/increment/jsonb operators, on_conflict, pk_columns, mutation_response. */

function columnInput(
  types: RoleTypes,
  name: string,
  description: string,
  entry: RoleTable,
  columns: ColumnField[],
  typeOf = (column: ColumnField): GraphQLInputType => types.columnScalar(column),
) {
  return types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description,
        fields: () =>
          Object.fromEntries(
            columns.map((column) => [
              column.name,
              { type: typeOf(column), description: columnDescription(entry.table, column) },
            ]),
          ),
      }),
  );
}

export function insertInputType(
  types: RoleTypes,
  entry: RoleTable,
): GraphQLInputObjectType | undefined {
  const permission = entry.insert!;
  const columns = writableColumns(entry.table, permission.columns, permission.presets);
  if (columns.length === 0) return undefined;
  return columnInput(
    types,
    `${entry.table.typeName}_insert_input`,
    `input type for inserting data into table ${quotedTable(entry.table)}`,
    entry,
    columns,
  );
}

function updateColumns(types: RoleTypes, entry: RoleTable): ColumnField[] {
  return entry.update
    ? writableColumns(entry.table, entry.update.columns, entry.update.presets)
    : [];
}

/** Like Hasura, offered whenever the table has a unique or primary key (DO NOTHING needs no update permission). */
export function onConflictType(
  types: RoleTypes,
  entry: RoleTable,
): GraphQLInputObjectType | undefined {
  const { table } = entry;
  const constraints = table.info.uniqueConstraints;
  if (constraints.length === 0) return undefined;
  const name = `${table.typeName}_on_conflict`;
  return types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description: `on_conflict condition type for table ${quotedTable(table)}`,
        fields: () => {
          const constraintName = `${table.typeName}_constraint`;
          const constraint = types.once(
            constraintName,
            () =>
              new GraphQLEnumType({
                name: constraintName,
                description: `unique or primary key constraints on table ${quotedTable(table)}`,
                values: Object.fromEntries(
                  constraints.map((unique) => [
                    unique.name,
                    {
                      value: unique.name,
                      description: `unique or primary key constraint on columns ${unique.columns.map((column) => `"${column}"`).join(', ')}`,
                    },
                  ]),
                ),
              }),
          );
          const updateColumnName = `${table.typeName}_update_column`;
          const columns = updateColumns(types, entry);
          const updateColumn = types.once(
            updateColumnName,
            () =>
              new GraphQLEnumType({
                name: updateColumnName,
                ...(columns.length > 0
                  ? {
                      description: `update columns of table ${quotedTable(table)}`,
                      values: columnEnumValues(columns),
                    }
                  : {
                      description: `placeholder for update columns of table ${quotedTable(table)} (current role has no relevant permissions)`,
                      values: { _PLACEHOLDER: { description: 'placeholder (do not use)' } },
                    }),
              }),
          );
          return {
            constraint: { type: nonNull(constraint) },
            update_columns: { type: nonNull(listOf(updateColumn)), defaultValue: [] },
            where: { type: types.boolExpType(entry) },
          };
        },
      }),
  );
}

export function mutationResponseType(types: RoleTypes, entry: RoleTable): GraphQLObjectType {
  const name = `${entry.table.typeName}_mutation_response`;
  return types.once(
    name,
    () =>
      new GraphQLObjectType({
        name,
        description: `response of any mutation on the table ${quotedTable(entry.table)}`,
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {
            affected_rows: {
              type: nonNull(GraphQLInt),
              description: 'number of rows affected by the mutation',
            },
          };
          const target = types.selectable(entry.table.key);
          if (target)
            fields['returning'] = {
              type: nonNull(listOf(types.objectType(target))),
              description: 'data from the rows affected by the mutation',
            };
          return fields;
        },
      }),
  );
}

export function primaryKeyInputType(types: RoleTypes, entry: RoleTable): GraphQLInputObjectType {
  const name = `${entry.table.typeName}_pk_columns_input`;
  return types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description: `primary key columns input for table: ${plainTable(entry.table)}`,
        fields: () => types.primaryKeyArgs(entry),
      }),
  );
}

/** `_set`, `_inc` and the jsonb operators, each only when some column can take it. */
export function updateOperatorArgs(
  types: RoleTypes,
  entry: RoleTable,
): GraphQLFieldConfigArgumentMap {
  const { table } = entry;
  const columns = updateColumns(types, entry);
  const args: GraphQLFieldConfigArgumentMap = {};
  if (columns.length > 0) {
    args['_set'] = {
      type: columnInput(
        types,
        `${table.typeName}_set_input`,
        `input type for updating data in table ${quotedTable(table)}`,
        entry,
        columns,
      ),
      description: 'sets the columns of the filtered rows to the given values',
    };
  }
  const numeric = columns.filter(
    (column) => isNumericType(column.column.typeName) && !column.column.isArray,
  );
  if (numeric.length > 0) {
    args['_inc'] = {
      type: columnInput(
        types,
        `${table.typeName}_inc_input`,
        `input type for incrementing numeric columns in table ${quotedTable(table)}`,
        entry,
        numeric,
      ),
      description: 'increments the numeric columns with given value of the filtered values',
    };
  }
  const jsonb = columns.filter((column) => column.column.typeName === 'jsonb');
  if (jsonb.length > 0) {
    for (const [op, { type, description }] of Object.entries(JSONB_OPERATORS) as Array<
      [JsonbOperator, (typeof JSONB_OPERATORS)[JsonbOperator]]
    >) {
      const operand = (column: ColumnField): GraphQLInputType =>
        op === '_delete_key'
          ? GraphQLString
          : op === '_delete_elem'
            ? GraphQLInt
            : op === '_delete_at_path'
              ? listOf(GraphQLString)
              : types.columnScalar(column);
      args[op] = {
        type: columnInput(
          types,
          `${table.typeName}_${type}_input`,
          description,
          entry,
          jsonb,
          operand,
        ),
        description,
      };
    }
  }
  return args;
}
