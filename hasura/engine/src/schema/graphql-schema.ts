import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLSkipDirective,
  GraphQLIncludeDirective,
  GraphQLString,
  lexicographicSortSchema,
  type GraphQLNamedType,
} from 'graphql';

import type { RoleSchema, SchemaModel } from './model.ts';
import { actionField } from './graphql/action-types.ts';
import { aggregateType } from './graphql/aggregate-types.ts';
import { boolExpType } from './graphql/filter-types.ts';
import {
  insertInputType,
  mutationResponseType,
  onConflictType,
  primaryKeyInputType,
  updateOperatorArgs,
} from './graphql/mutation-types.ts';
import {
  columnScalar,
  computedFieldInputs,
  objectType,
  scalar,
  selectColumnEnum,
} from './graphql/object-types.ts';
import { orderByType } from './graphql/order-by-types.ts';
import { primaryKeyArgs, rootType, selectArgs } from './graphql/root-fields.ts';
import {
  argumentFree,
  selectable,
  selectColumns,
  visibleComputedFields,
  visibleRelationships,
} from './graphql/visible.ts';
import type { RoleTypes } from './graphql/role-types.ts';
import { nonNull } from './graphql/shared.ts';

/*
 * The GraphQL schema of one role, shaped and named as the Hasura GraphQL Engine v2 builds it
 * (server/src-lib/Hasura/GraphQL/Schema/*.hs and Backends/Postgres/Instances/Schema.hs), so
 * clients and GraphQL Code Generator work the same against either engine. It offers only
 * what the planner (plan/*.ts) accepts for the role: where Hasura offers more (nested
 * inserts, `_aggregate` boolean expressions, streaming subscriptions, `update_*_many`,
 * `_cast`, async action queries), the field is left out rather than promised and refused.
 * It answers introspection and prints the SDL; requests are still planned by plan/, not
 * validated by graphql-js.
 */

/** Hasura's `@cached` directive (accepted and ignored by the planner). */
const CACHED_DIRECTIVE = new GraphQLDirective({
  name: 'cached',
  description: 'whether this query should be cached (Hasura Cloud only)',
  locations: [DirectiveLocation.QUERY],
  args: {
    ttl: {
      type: new GraphQLNonNull(GraphQLInt),
      defaultValue: 60,
      description: 'measured in seconds',
    },
    refresh: {
      type: new GraphQLNonNull(GraphQLBoolean),
      defaultValue: false,
      description: 'refresh the cache entry',
    },
  },
});

const NO_QUERIES_DESCRIPTION =
  "There are no queries available to the current role. Either there are no sources or remote schemas configured, or the current role doesn't have the required permissions.";

/** Builds one role's schema: holds the role's named types and hands each builder the others. */
class RoleSchemaBuilder implements RoleTypes {
  private readonly types = new Map<string, GraphQLNamedType>();

  constructor(readonly role: RoleSchema) {}

  readonly actionField: RoleTypes['actionField'] = (...args) => actionField(this, ...args);
  readonly aggregateType: RoleTypes['aggregateType'] = (...args) => aggregateType(this, ...args);
  readonly boolExpType: RoleTypes['boolExpType'] = (...args) => boolExpType(this, ...args);
  readonly insertInputType: RoleTypes['insertInputType'] = (...args) =>
    insertInputType(this, ...args);
  readonly mutationResponseType: RoleTypes['mutationResponseType'] = (...args) =>
    mutationResponseType(this, ...args);
  readonly onConflictType: RoleTypes['onConflictType'] = (...args) => onConflictType(this, ...args);
  readonly primaryKeyInputType: RoleTypes['primaryKeyInputType'] = (...args) =>
    primaryKeyInputType(this, ...args);
  readonly updateOperatorArgs: RoleTypes['updateOperatorArgs'] = (...args) =>
    updateOperatorArgs(this, ...args);
  readonly columnScalar: RoleTypes['columnScalar'] = (...args) => columnScalar(this, ...args);
  readonly computedFieldInputs: RoleTypes['computedFieldInputs'] = (...args) =>
    computedFieldInputs(this, ...args);
  readonly objectType: RoleTypes['objectType'] = (...args) => objectType(this, ...args);
  readonly scalar: RoleTypes['scalar'] = (...args) => scalar(this, ...args);
  readonly selectColumnEnum: RoleTypes['selectColumnEnum'] = (...args) =>
    selectColumnEnum(this, ...args);
  readonly orderByType: RoleTypes['orderByType'] = (...args) => orderByType(this, ...args);
  readonly primaryKeyArgs: RoleTypes['primaryKeyArgs'] = (...args) => primaryKeyArgs(this, ...args);
  readonly rootType: RoleTypes['rootType'] = (...args) => rootType(this, ...args);
  readonly selectArgs: RoleTypes['selectArgs'] = (...args) => selectArgs(this, ...args);
  readonly argumentFree: RoleTypes['argumentFree'] = (...args) => argumentFree(this, ...args);
  readonly selectColumns: RoleTypes['selectColumns'] = (...args) => selectColumns(this, ...args);
  readonly selectable: RoleTypes['selectable'] = (...args) => selectable(this, ...args);
  readonly visibleComputedFields: RoleTypes['visibleComputedFields'] = (...args) =>
    visibleComputedFields(this, ...args);
  readonly visibleRelationships: RoleTypes['visibleRelationships'] = (...args) =>
    visibleRelationships(this, ...args);

  build(): GraphQLSchema {
    const query = this.rootType('query_root', undefined, this.role.query);
    const mutation = this.rootType('mutation_root', 'mutation root', this.role.mutation);
    const subscription = this.rootType('subscription_root', undefined, this.role.subscription);
    const schema = new GraphQLSchema({
      query:
        query ??
        new GraphQLObjectType({
          name: 'query_root',
          fields: {
            no_queries_available: {
              type: nonNull(GraphQLString),
              description: NO_QUERIES_DESCRIPTION,
            },
          },
        }),
      mutation,
      subscription,
      directives: [GraphQLIncludeDirective, GraphQLSkipDirective, CACHED_DIRECTIVE],
    });
    return lexicographicSortSchema(schema);
  }

  /** One named type per name; `make` must defer its fields (thunks), so cycles resolve. */
  once<T extends GraphQLNamedType>(name: string, make: () => T): T {
    const found = this.types.get(name);
    if (found) return found as T;
    const made = make();
    this.types.set(name, made);
    return made;
  }
}

const cache = new WeakMap<RoleSchema, GraphQLSchema>();

/**
 * The role's API as a graphql-js schema, built once per RoleSchema (a model's roles never
 * change). Everything it needs is reachable from the role; `model` is accepted so callers
 * that hold one can pass it, and is not otherwise needed.
 */
export function buildGraphQLSchema(role: RoleSchema, _model?: SchemaModel): GraphQLSchema {
  const cached = cache.get(role);
  if (cached) return cached;
  const schema = new RoleSchemaBuilder(role).build();
  cache.set(role, schema);
  return schema;
}
