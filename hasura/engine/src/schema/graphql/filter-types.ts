import {
  GraphQLBoolean,
  GraphQLInputObjectType,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
} from 'graphql';

import type { RoleTable } from '../model.ts';
import { isTextType } from '../scalars.ts';

import type { RoleTypes } from './role-types.ts';
import {
  columnDescription,
  comparisonTypeName,
  listOf,
  quotedTable,
  TEXT_OPERATORS,
} from './shared.ts';

/* Boolean expressions: `<table>_bool_exp` and the per-scalar `<scalar>_comparison_exp` inputs. */

export function boolExpType(types: RoleTypes, entry: RoleTable): GraphQLInputObjectType {
  const name = `${entry.table.typeName}_bool_exp`;
  const type: GraphQLInputObjectType = types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description: `Boolean expression to filter rows from the table ${quotedTable(entry.table)}. All fields are combined with a logical 'AND'.`,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {
            _and: { type: listOf(type) },
            _not: { type },
            _or: { type: listOf(type) },
          };
          for (const column of types.selectColumns(entry)) {
            fields[column.name] = {
              type: comparisonType(types, column.scalar, column.column.typeName),
              description: columnDescription(entry.table, column),
            };
          }
          for (const { relationship, target } of types.visibleRelationships(entry)) {
            fields[relationship.name] = { type: boolExpType(types, target) };
          }
          for (const { field, scalar, target } of types.visibleComputedFields(entry)) {
            if (!types.argumentFree(field)) continue;
            fields[field.name] = {
              type:
                scalar !== undefined
                  ? comparisonType(types, scalar, field.fn.returnTypeName)
                  : boolExpType(types, target),
            };
          }
          return fields;
        },
      }),
  );
  return type;
}

/** `<scalar>_comparison_exp` with the operators bool-exp.ts accepts for the Postgres type. */
function comparisonType(
  types: RoleTypes,
  graphqlScalar: string,
  typeName: string,
): GraphQLInputObjectType {
  const name = comparisonTypeName(graphqlScalar);
  return types.once(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        description: `Boolean expression to compare columns of type ${JSON.stringify(graphqlScalar)}. All fields are combined with logical 'AND'.`,
        fields: () => {
          const scalar = types.scalar(graphqlScalar);
          const fields: GraphQLInputFieldConfigMap = {
            _eq: { type: scalar },
            _gt: { type: scalar },
            _gte: { type: scalar },
            _in: { type: listOf(scalar) },
            _is_null: { type: GraphQLBoolean },
            _lt: { type: scalar },
            _lte: { type: scalar },
            _neq: { type: scalar },
            _nin: { type: listOf(scalar) },
          };
          if (isTextType(typeName)) {
            for (const [op, description] of TEXT_OPERATORS)
              fields[op] = { type: scalar, description };
          }
          if (typeName === 'jsonb') {
            fields['_contains'] = {
              type: scalar,
              description: 'does the column contain the given json value at the top level',
            };
            fields['_contained_in'] = {
              type: scalar,
              description: 'is the column contained in the given json value',
            };
            fields['_has_key'] = {
              type: GraphQLString,
              description: 'does the string exist as a top-level key in the column',
            };
            fields['_has_keys_all'] = {
              type: listOf(GraphQLString),
              description: 'do all of these strings exist as top-level keys in the column',
            };
            fields['_has_keys_any'] = {
              type: listOf(GraphQLString),
              description: 'do any of these strings exist as top-level keys in the column',
            };
          }
          return fields;
        },
      }),
  );
}
