import {
  isEnumType,
  isInputObjectType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll } from 'vitest';

import {
  FIXTURE_METADATA,
  loadSchemaModel,
  PROJECT_METADATA,
  startFixtureDatabase,
  type FixtureDatabase,
} from './graphql-schema.test-fixture.ts';
import type { SchemaModel } from './model.ts';

/*
 * The GraphQL schema suites' world: the fixture database and the schema models of the fixture
 * metadata and the project's, loaded once per file (useSchemaModels; `fixture` and `project`
 * are live bindings), and the readers the tests look at a schema with.
 */

export function objectType(schema: GraphQLSchema, name: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type in the schema`);
  return type;
}
export function inputType(schema: GraphQLSchema, name: string): GraphQLInputObjectType {
  const type = schema.getType(name);
  if (!isInputObjectType(type))
    throw new Error(`${name} is not an input object type in the schema`);
  return type;
}
export function enumValues(schema: GraphQLSchema, name: string): string[] {
  const type = schema.getType(name);
  if (!isEnumType(type)) throw new Error(`${name} is not an enum type in the schema`);
  return type.getValues().map((value) => value.name);
}
export const fieldNames = (type: GraphQLObjectType | GraphQLInputObjectType) =>
  Object.keys(type.getFields()).sort();
/** `name: Type` of a field, or `name(arg: Type, ...): Type`. */
export function signature(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.map((arg) => `${arg.name}: ${arg.type.toString()}`).join(', ');
  return `${field.name}${args ? `(${args})` : ''}: ${field.type.toString()}`;
}
export function rootField(
  schema: GraphQLSchema,
  root: 'query' | 'mutation' | 'subscription',
  name: string,
): string | undefined {
  const type =
    root === 'query'
      ? schema.getQueryType()
      : root === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  const field = type?.getFields()[name];
  return field && signature(field);
}
export const inputFieldType = (schema: GraphQLSchema, type: string, field: string) =>
  inputType(schema, type).getFields()[field]?.type.toString();
export const outputFieldType = (schema: GraphQLSchema, type: string, field: string) =>
  objectType(schema, type).getFields()[field]?.type.toString();

let db: FixtureDatabase;
export let fixture: SchemaModel;
export let project: SchemaModel;

/** Loads both models before the file's tests and stops the database after. */
export function useSchemaModels(): void {
  beforeAll(async () => {
    db = await startFixtureDatabase();
    fixture = await loadSchemaModel(db.pool, { object: FIXTURE_METADATA });
    project = await loadSchemaModel(db.pool, PROJECT_METADATA);
  });
  afterAll(async () => {
    await db?.stop();
  });
}
