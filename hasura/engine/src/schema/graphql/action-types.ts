import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLObjectType,
  Kind,
  parseType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLType,
  type TypeNode,
} from 'graphql';

import { qualifiedKey } from '../../catalog/model.ts';
import type { ActionMetadata, CustomTypesMetadata } from '../../metadata/model.ts';

import type { RoleTypes } from './role-types.ts';
import { BUILT_IN_SCALARS, listOf, nonNull } from './shared.ts';

/* Action root fields and the custom types (input and output objects, scalars, enums) they use. */

export function actionField(
  types: RoleTypes,
  action: ActionMetadata,
): GraphQLFieldConfig<unknown, unknown> {
  const { definition } = action;
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const argument of definition.arguments) {
    args[argument.name] = {
      type: customType(types, parseType(argument.type), 'input') as GraphQLInputType,
    };
  }
  const type =
    definition.kind === 'asynchronous' || !definition.output_type
      ? nonNull(types.scalar('uuid'))
      : (customType(types, parseType(definition.output_type), 'output') as GraphQLOutputType);
  return { type, args, description: action.comment ?? undefined };
}

/** A type written in action SDL: built-in, custom (metadata custom_types) or a Postgres scalar. */
function customType(types: RoleTypes, node: TypeNode, mode: 'input' | 'output'): GraphQLType {
  if (node.kind === Kind.NON_NULL_TYPE)
    return nonNull(customType(types, node.type, mode) as GraphQLInputType & GraphQLOutputType);
  if (node.kind === Kind.LIST_TYPE) return new GraphQLList(customType(types, node.type, mode));
  const name = node.name.value;
  const custom: CustomTypesMetadata = types.role.customTypes;
  const builtIn = BUILT_IN_SCALARS[name];
  if (builtIn) return builtIn;
  const enumType = custom.enums.find((candidate) => candidate.name === name);
  if (enumType) {
    return types.once(
      name,
      () =>
        new GraphQLEnumType({
          name,
          description: (enumType['description'] as string | null | undefined) ?? undefined,
          values: Object.fromEntries(
            enumType.values.map((value) => [
              value.value,
              { description: (value['description'] as string | null | undefined) ?? undefined },
            ]),
          ),
        }),
    );
  }
  const input = custom.input_objects.find((candidate) => candidate.name === name);
  if (input && mode === 'input') {
    return types.once(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          description: (input['description'] as string | null | undefined) ?? undefined,
          fields: () =>
            Object.fromEntries(
              input.fields.map((field) => [
                field.name,
                {
                  type: customType(types, parseType(field.type), 'input') as GraphQLInputType,
                  description: field.description ?? undefined,
                },
              ]),
            ),
        }),
    );
  }
  const object = custom.objects.find((candidate) => candidate.name === name);
  if (object && mode === 'output') {
    return types.once(
      name,
      () =>
        new GraphQLObjectType({
          name,
          description: (object['description'] as string | null | undefined) ?? undefined,
          fields: () => {
            const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
            for (const field of object.fields) {
              fields[field.name] = {
                type: customType(types, parseType(field.type), 'output') as GraphQLOutputType,
                description: field.description ?? undefined,
              };
            }
            for (const relationship of object.relationships) {
              const target = types.selectable(
                qualifiedKey(relationship.remote_table.schema, relationship.remote_table.name),
              );
              if (!target) continue;
              fields[relationship.name] =
                relationship.type === 'object'
                  ? { type: types.objectType(target), description: 'An object relationship' }
                  : {
                      type: nonNull(listOf(types.objectType(target))),
                      args: types.selectArgs(target),
                      description: 'An array relationship',
                    };
            }
            return fields;
          },
        }),
    );
  }
  return types.scalar(name);
}
