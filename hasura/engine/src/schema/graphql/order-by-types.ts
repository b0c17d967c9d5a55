import { GraphQLEnumType, GraphQLInputObjectType, type GraphQLInputFieldConfigMap } from 'graphql';

import type { RoleTable } from '../model.ts';

import type { RoleTypes } from './role-types.ts';
import {
  columnDescription,
  eligibleFor,
  quotedTable,
  SORTED_AGGREGATE_FUNCTIONS,
} from './shared.ts';

/* Ordering: the `order_by` enum, `<table>_order_by` and the aggregate order-by inputs. */

function orderByEnum(types: RoleTypes): GraphQLEnumType {
  return types.once(
    'order_by',
    () =>
      new GraphQLEnumType({
        name: 'order_by',
        description: 'column ordering options',
        values: {
          asc: { description: 'in ascending order, nulls last' },
          asc_nulls_first: { description: 'in ascending order, nulls first' },
          asc_nulls_last: { description: 'in ascending order, nulls last' },
          desc: { description: 'in descending order, nulls first' },
          desc_nulls_first: { description: 'in descending order, nulls first' },
          desc_nulls_last: { description: 'in descending order, nulls last' },
        },
      }),
  );
}

/** `<t>_order_by`, or undefined when the role could order by nothing. */
export function orderByType(
  types: RoleTypes,
  entry: RoleTable,
): GraphQLInputObjectType | undefined {
  const computed = types
    .visibleComputedFields(entry)
    .filter(({ field }) => types.argumentFree(field));
  if (
    types.selectColumns(entry).length === 0 &&
    types.visibleRelationships(entry).length === 0 &&
    computed.length === 0
  )
    return undefined;
  const name = `${entry.table.typeName}_order_by`;
  return types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description: `Ordering options when selecting data from ${quotedTable(entry.table)}.`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {};
          for (const column of types.selectColumns(entry)) {
            fields[column.name] = {
              type: orderByEnum(types),
              description: columnDescription(entry.table, column),
            };
          }
          for (const { relationship, target } of types.visibleRelationships(entry)) {
            if (relationship.kind === 'object') {
              const type = orderByType(types, target);
              if (type) fields[relationship.name] = { type };
            } else {
              fields[`${relationship.name}_aggregate`] = {
                type: aggregateOrderByType(types, target),
              };
            }
          }
          for (const { field, scalar, target } of computed) {
            if (scalar !== undefined) fields[field.name] = { type: orderByEnum(types) };
            else fields[`${field.name}_aggregate`] = { type: aggregateOrderByType(types, target) };
          }
          return fields;
        },
      }),
  );
}

function aggregateOrderByType(types: RoleTypes, entry: RoleTable): GraphQLInputObjectType {
  const name = `${entry.table.typeName}_aggregate_order_by`;
  return types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description: `order by aggregate values of table ${quotedTable(entry.table)}`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = { count: { type: orderByEnum(types) } };
          for (const fn of SORTED_AGGREGATE_FUNCTIONS) {
            const columns = types.selectColumns(entry).filter((column) => eligibleFor(fn, column));
            if (columns.length === 0) continue;
            const fnName = `${entry.table.typeName}_${fn}_order_by`;
            const type = types.once(
              fnName,
              () =>
                new GraphQLInputObjectType({
                  name: fnName,
                  description: `order by ${fn}() on columns of table ${quotedTable(entry.table)}`,
                  fields: () =>
                    Object.fromEntries(
                      columns.map((column) => [
                        column.name,
                        {
                          type: orderByEnum(types),
                          description: columnDescription(entry.table, column),
                        },
                      ]),
                    ),
                }),
            );
            fields[fn] = { type };
          }
          return fields;
        },
      }),
  );
}
