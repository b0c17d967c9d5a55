import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLObjectType,
  type GraphQLFieldConfigMap,
} from 'graphql';

import type { AggregateFunction } from '../../plan/ir.ts';
import type { RoleTable } from '../model.ts';

import type { RoleTypes } from './role-types.ts';
import {
  columnDescription,
  eligibleFor,
  listOf,
  nonNull,
  quotedTable,
  SORTED_AGGREGATE_FUNCTIONS,
} from './shared.ts';

/* `<table>_aggregate`, its `aggregate` fields and the per-function column objects (`avg`, `max`, ...). */

export function aggregateType(types: RoleTypes, entry: RoleTable): GraphQLObjectType {
  const name = `${entry.table.typeName}_aggregate`;
  return types.once(
    name,
    () =>
      new GraphQLObjectType({
        name,
        description: `aggregated selection of ${quotedTable(entry.table)}`,
        fields: () => ({
          aggregate: { type: aggregateFieldsType(types, entry) },
          nodes: { type: nonNull(listOf(types.objectType(entry))) },
        }),
      }),
  );
}

function aggregateFieldsType(types: RoleTypes, entry: RoleTable): GraphQLObjectType {
  const name = `${entry.table.typeName}_aggregate_fields`;
  return types.once(
    name,
    () =>
      new GraphQLObjectType({
        name,
        description: `aggregate fields of ${quotedTable(entry.table)}`,
        fields: () => {
          const columns = types.selectColumnEnum(entry);
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {
            count: {
              type: nonNull(GraphQLInt),
              args: {
                ...(columns && { columns: { type: listOf(columns) } }),
                distinct: { type: GraphQLBoolean },
              },
            },
          };
          for (const fn of SORTED_AGGREGATE_FUNCTIONS) {
            const type = aggregateFunctionType(types, entry, fn);
            if (type) fields[fn] = { type };
          }
          return fields;
        },
      }),
  );
}

function aggregateFunctionType(
  types: RoleTypes,
  entry: RoleTable,
  fn: AggregateFunction,
): GraphQLObjectType | undefined {
  const columns = types.selectColumns(entry).filter((column) => eligibleFor(fn, column));
  if (columns.length === 0) return undefined;
  const name = `${entry.table.typeName}_${fn}_fields`;
  const keepsType = fn === 'sum' || fn === 'max' || fn === 'min';
  return types.once(
    name,
    () =>
      new GraphQLObjectType({
        name,
        description: `aggregate ${fn} on columns`,
        fields: () =>
          Object.fromEntries(
            columns.map((column) => [
              column.name,
              {
                type: keepsType ? types.columnScalar(column) : GraphQLFloat,
                description: columnDescription(entry.table, column),
              },
            ]),
          ),
      }),
  );
}
