import {
  GraphQLInt,
  GraphQLObjectType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
} from 'graphql';

import type { RoleTable, RootField } from '../model.ts';

import type { RoleTypes } from './role-types.ts';
import { columnDescription, columnsIn, listOf, nonNull, quotedTable } from './shared.ts';

/* Root fields of a table (select, by pk, aggregate, insert, update, delete) and their arguments. */

export function rootType(
  types: RoleTypes,
  name: string,
  description: string | undefined,
  roots: Map<string, RootField>,
): GraphQLObjectType | undefined {
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const root of roots.values()) {
    const field =
      root.kind === 'action' ? types.actionField(root.action) : tableRootField(types, root);
    if (field) fields[root.name] = field;
  }
  if (Object.keys(fields).length === 0) return undefined;
  return new GraphQLObjectType({ name, description, fields });
}

function tableRootField(
  types: RoleTypes,
  root: Extract<RootField, { table: RoleTable }>,
): GraphQLFieldConfig<unknown, unknown> | undefined {
  const entry = root.table;
  const { table } = entry;
  const name = quotedTable(table);
  const target = types.selectable(table.key);
  switch (root.kind) {
    case 'select':
      return (
        target && {
          type: nonNull(listOf(types.objectType(target))),
          args: selectArgs(types, target),
          description: `fetch data from the table: ${name}`,
        }
      );
    case 'select_aggregate':
      return (
        target && {
          type: nonNull(types.aggregateType(target)),
          args: selectArgs(types, target),
          description: `fetch aggregated fields from the table: ${name}`,
        }
      );
    case 'select_by_pk':
      return (
        target && {
          type: types.objectType(target),
          args: primaryKeyArgs(types, entry),
          description: `fetch data from the table: ${name} using primary key columns`,
        }
      );
    case 'insert':
    case 'insert_one': {
      const input = types.insertInputType(entry);
      if (!input) return undefined;
      const args: GraphQLFieldConfigArgumentMap =
        root.kind === 'insert'
          ? { objects: { type: nonNull(listOf(input)), description: 'the rows to be inserted' } }
          : { object: { type: nonNull(input), description: 'the row to be inserted' } };
      const onConflict = types.onConflictType(entry);
      if (onConflict) args['on_conflict'] = { type: onConflict, description: 'upsert condition' };
      if (root.kind === 'insert')
        return {
          type: types.mutationResponseType(entry),
          args,
          description: `insert data into the table: ${name}`,
        };
      return (
        target && {
          type: types.objectType(target),
          args,
          description: `insert a single row into the table: ${name}`,
        }
      );
    }
    case 'update':
    case 'update_by_pk': {
      const args = types.updateOperatorArgs(entry);
      if (root.kind === 'update') {
        args['where'] = {
          type: nonNull(types.boolExpType(entry)),
          description: 'filter the rows which have to be updated',
        };
        return {
          type: types.mutationResponseType(entry),
          args,
          description: `update data of the table: ${name}`,
        };
      }
      args['pk_columns'] = { type: nonNull(types.primaryKeyInputType(entry)) };
      return (
        target && {
          type: types.objectType(target),
          args,
          description: `update single row of the table: ${name}`,
        }
      );
    }
    case 'delete':
      return {
        type: types.mutationResponseType(entry),
        args: {
          where: {
            type: nonNull(types.boolExpType(entry)),
            description: 'filter the rows which have to be deleted',
          },
        },
        description: `delete data from the table: ${name}`,
      };
    case 'delete_by_pk':
      return (
        target && {
          type: types.objectType(target),
          args: primaryKeyArgs(types, entry),
          description: `delete single row from the table: ${name}`,
        }
      );
  }
}

export function primaryKeyArgs(types: RoleTypes, entry: RoleTable): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const field of columnsIn(entry.table, new Set(entry.table.info.primaryKey ?? []))) {
    args[field.name] = {
      type: nonNull(types.columnScalar(field)),
      description: columnDescription(entry.table, field),
    };
  }
  return args;
}

export function selectArgs(types: RoleTypes, entry: RoleTable): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  const columns = types.selectColumnEnum(entry);
  if (columns)
    args['distinct_on'] = { type: listOf(columns), description: 'distinct select on columns' };
  args['limit'] = { type: GraphQLInt, description: 'limit the number of rows returned' };
  args['offset'] = {
    type: GraphQLInt,
    description: 'skip the first n rows. Use only with order_by',
  };
  const orderBy = types.orderByType(entry);
  if (orderBy)
    args['order_by'] = {
      type: listOf(orderBy),
      description: 'sort the rows by one or more columns',
    };
  args['where'] = { type: types.boolExpType(entry), description: 'filter the rows returned' };
  return args;
}
