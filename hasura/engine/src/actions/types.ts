import { Kind, parseType, type TypeNode } from 'graphql';

import type { ActionMetadata, CustomTypesMetadata } from '../metadata/model.ts';

/*
 * The GraphQL types an action is declared with (`[UserInput!]!`, `UserId`, `json`), and the
 * custom types they name, indexed once per metadata object.
 */

/** A GraphQL type reference; `nonNull` marks `!` at that level. */
export type TypeRef =
  | { kind: 'named'; name: string; nonNull: boolean }
  | { kind: 'list'; of: TypeRef; nonNull: boolean };

export const BUILT_IN_SCALARS = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

function fromNode(node: TypeNode, nonNull = false): TypeRef {
  switch (node.kind) {
    case Kind.NON_NULL_TYPE:
      return fromNode(node.type, true);
    case Kind.LIST_TYPE:
      return { kind: 'list', of: fromNode(node.type), nonNull };
    case Kind.NAMED_TYPE:
      return { kind: 'named', name: node.name.value, nonNull };
  }
}

const parsedTypes = new Map<string, TypeRef>();

/** Parses a type as metadata writes it (`[UserInput!]!`). */
export function parseTypeRef(text: string): TypeRef {
  let parsed = parsedTypes.get(text);
  if (!parsed) {
    parsed = fromNode(parseType(text, { noLocation: true }));
    parsedTypes.set(text, parsed);
  }
  return parsed;
}

/** The named type at the bottom of lists. */
export function baseName(type: TypeRef): string {
  return type.kind === 'list' ? baseName(type.of) : type.name;
}

export interface OutputObjectType {
  name: string;
  fields: Map<string, TypeRef>;
  relationships: Map<string, CustomRelationship>;
}

export interface CustomRelationship {
  name: string;
  type: 'object' | 'array';
  /** Catalog key of the remote table (`schema.name`). */
  remoteTable: string;
  /** Field of the action's object type -> column of the remote table. */
  fieldMapping: Array<[string, string]>;
}

export interface InputObjectType {
  name: string;
  fields: Array<{ name: string; type: TypeRef }>;
  byName: Map<string, TypeRef>;
}

/** The custom types of the metadata, by name. */
export interface TypeCatalog {
  objects: Map<string, OutputObjectType>;
  inputObjects: Map<string, InputObjectType>;
  enums: Map<string, string[]>;
  scalars: Set<string>;
}

const catalogs = new WeakMap<CustomTypesMetadata, TypeCatalog>();

export function typeCatalog(customTypes: CustomTypesMetadata): TypeCatalog {
  const cached = catalogs.get(customTypes);
  if (cached) return cached;
  const catalog: TypeCatalog = {
    objects: new Map(
      customTypes.objects.map((object) => [
        object.name,
        {
          name: object.name,
          fields: new Map(object.fields.map((field) => [field.name, parseTypeRef(field.type)])),
          relationships: new Map(
            object.relationships.map((relationship) => [
              relationship.name,
              {
                name: relationship.name,
                type: relationship.type,
                remoteTable: `${relationship.remote_table.schema}.${relationship.remote_table.name}`,
                fieldMapping: Object.entries(relationship.field_mapping),
              },
            ]),
          ),
        },
      ]),
    ),
    inputObjects: new Map(
      customTypes.input_objects.map((input) => {
        const fields = input.fields.map((field) => ({
          name: field.name,
          type: parseTypeRef(field.type),
        }));
        return [
          input.name,
          {
            name: input.name,
            fields,
            byName: new Map(fields.map((field) => [field.name, field.type])),
          },
        ];
      }),
    ),
    enums: new Map(
      customTypes.enums.map((enumType) => [
        enumType.name,
        enumType.values.map((value) => value.value),
      ]),
    ),
    scalars: new Set(customTypes.scalars.map((scalar) => scalar.name)),
  };
  catalogs.set(customTypes, catalog);
  return catalog;
}

/** The action's arguments with parsed types, in definition order. */
export function actionArguments(action: ActionMetadata): Array<{ name: string; type: TypeRef }> {
  return action.definition.arguments.map((argument) => ({
    name: argument.name,
    type: parseTypeRef(argument.type),
  }));
}

/**
 * Whether values of this named output type are passed through untouched: custom scalars and
 * Postgres scalars (`json`, `uuid`, ...) carry any JSON; enums are strings.
 */
export function isOpaqueScalar(name: string, catalog: TypeCatalog): boolean {
  return !BUILT_IN_SCALARS.has(name) && !catalog.objects.has(name);
}
