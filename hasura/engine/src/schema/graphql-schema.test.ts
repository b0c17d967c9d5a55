import {
  assertValidSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isObjectType,
  parse,
  validate,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Session } from '../auth/session.ts';
import { planOperation } from '../plan/operation.ts';

import { buildGraphQLSchema } from './graphql-schema.ts';
import {
  FIXTURE_METADATA,
  loadSchemaModel,
  PROJECT_METADATA,
  startFixtureDatabase,
  type FixtureDatabase,
} from './graphql-schema.test-fixture.ts';
import type { SchemaModel } from './model.ts';

function objectType(schema: GraphQLSchema, name: string): GraphQLObjectType {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type in the schema`);
  return type;
}
function inputType(schema: GraphQLSchema, name: string): GraphQLInputObjectType {
  const type = schema.getType(name);
  if (!isInputObjectType(type))
    throw new Error(`${name} is not an input object type in the schema`);
  return type;
}
function enumValues(schema: GraphQLSchema, name: string): string[] {
  const type = schema.getType(name);
  if (!isEnumType(type)) throw new Error(`${name} is not an enum type in the schema`);
  return type.getValues().map((value) => value.name);
}
const fieldNames = (type: GraphQLObjectType | GraphQLInputObjectType) =>
  Object.keys(type.getFields()).sort();
/** `name: Type` of a field, or `name(arg: Type, ...): Type`. */
function signature(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.map((arg) => `${arg.name}: ${arg.type.toString()}`).join(', ');
  return `${field.name}${args ? `(${args})` : ''}: ${field.type.toString()}`;
}
function rootField(
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
const inputFieldType = (schema: GraphQLSchema, type: string, field: string) =>
  inputType(schema, type).getFields()[field]?.type.toString();
const outputFieldType = (schema: GraphQLSchema, type: string, field: string) =>
  objectType(schema, type).getFields()[field]?.type.toString();

let db: FixtureDatabase;
let fixture: SchemaModel;
let project: SchemaModel;

beforeAll(async () => {
  db = await startFixtureDatabase();
  fixture = await loadSchemaModel(db.pool, { object: FIXTURE_METADATA });
  project = await loadSchemaModel(db.pool, PROJECT_METADATA);
});
afterAll(async () => {
  await db?.stop();
});

describe('the project metadata', () => {
  it('builds a valid schema for every role it names, and for a role it does not', () => {
    for (const role of [...project.roles, 'user', 'anonymous']) {
      expect(
        () => assertValidSchema(buildGraphQLSchema(project.forRole(role), project)),
        role,
      ).not.toThrow();
    }
  });

  it('gives admin every table with Hasura names and shapes', () => {
    const schema = buildGraphQLSchema(project.forRole('admin'), project);
    for (const table of [
      'portal_users',
      'transactions',
      'currencies',
      'exchange_directions',
      'rates',
      'user_custom_carrency',
    ]) {
      expect(schema.getType(table), table).toBeDefined();
      expect(rootField(schema, 'query', table)).toBe(
        `${table}(distinct_on: [${table}_select_column!], limit: Int, offset: Int, order_by: [${table}_order_by!], where: ${table}_bool_exp): [${table}!]!`,
      );
      expect(rootField(schema, 'query', `${table}_aggregate`)).toMatch(
        new RegExp(`: ${table}_aggregate!$`),
      );
      expect(rootField(schema, 'subscription', table)).toBe(rootField(schema, 'query', table));
      expect(rootField(schema, 'mutation', `insert_${table}`)).toBe(
        `insert_${table}(objects: [${table}_insert_input!]!, on_conflict: ${table}_on_conflict): ${table}_mutation_response`,
      );
      expect(rootField(schema, 'mutation', `insert_${table}_one`)).toBe(
        `insert_${table}_one(object: ${table}_insert_input!, on_conflict: ${table}_on_conflict): ${table}`,
      );
      expect(rootField(schema, 'mutation', `delete_${table}`)).toBe(
        `delete_${table}(where: ${table}_bool_exp!): ${table}_mutation_response`,
      );
    }
    expect(rootField(schema, 'query', 'portal_users_by_pk')).toBe(
      'portal_users_by_pk(id: uuid!): portal_users',
    );
    expect(rootField(schema, 'mutation', 'update_transactions_by_pk')).toBe(
      'update_transactions_by_pk(_inc: transactions_inc_input, _set: transactions_set_input, pk_columns: transactions_pk_columns_input!): transactions',
    );
    expect(rootField(schema, 'mutation', 'update_transactions')).toBe(
      'update_transactions(_inc: transactions_inc_input, _set: transactions_set_input, where: transactions_bool_exp!): transactions_mutation_response',
    );

    expect(outputFieldType(schema, 'transactions', 'send_amount')).toBe('numeric!');
    expect(outputFieldType(schema, 'transactions', 'number')).toBe('bigint!');
    expect(outputFieldType(schema, 'transactions', 'user')).toBe('portal_users!');
    expect(outputFieldType(schema, 'transactions', 'direction')).toBe('exchange_directions'); // manual: nullable
    expect(signature(objectType(schema, 'transactions').getFields()['status_history']!)).toBe(
      'status_history(distinct_on: [transaction_status_history_select_column!], limit: Int, offset: Int, order_by: [transaction_status_history_order_by!], where: transaction_status_history_bool_exp): [transaction_status_history!]!',
    );
    expect(outputFieldType(schema, 'transactions', 'status_history_aggregate')).toBe(
      'transaction_status_history_aggregate!',
    );
    expect(inputFieldType(schema, 'transactions_bool_exp', 'send_amount')).toBe(
      'numeric_comparison_exp',
    );
    expect(inputFieldType(schema, 'transactions_bool_exp', 'user')).toBe('portal_users_bool_exp');
    expect(inputFieldType(schema, 'transactions_order_by', 'user')).toBe('portal_users_order_by');
    expect(inputFieldType(schema, 'transactions_order_by', 'status_history_aggregate')).toBe(
      'transaction_status_history_aggregate_order_by',
    );
    expect(inputFieldType(schema, 'transactions_order_by', 'created_at')).toBe('order_by');
    expect(outputFieldType(schema, 'transactions_aggregate_fields', 'sum')).toBe(
      'transactions_sum_fields',
    );
    expect(outputFieldType(schema, 'transactions_sum_fields', 'send_amount')).toBe('numeric');
    expect(outputFieldType(schema, 'transactions_avg_fields', 'send_amount')).toBe('Float');
    expect(fieldNames(inputType(schema, 'String_comparison_exp'))).toContain('_ilike');
    expect(fieldNames(inputType(schema, 'uuid_comparison_exp'))).not.toContain('_ilike');
    // Identity columns are never written.
    expect(fieldNames(inputType(schema, 'transactions_insert_input'))).not.toContain('number');
    expect(enumValues(schema, 'order_by')).toEqual([
      'asc',
      'asc_nulls_first',
      'asc_nulls_last',
      'desc',
      'desc_nulls_first',
      'desc_nulls_last',
    ]);
  });

  it('shows a role without permissions nothing but the placeholder query field', () => {
    const schema = buildGraphQLSchema(project.forRole('visitor'), project);
    expect(fieldNames(schema.getQueryType()!)).toEqual(['no_queries_available']);
    expect(schema.getMutationType()).toBeUndefined();
    expect(schema.getSubscriptionType()).toBeUndefined();
    expect(schema.getType('transactions')).toBeUndefined();
  });

  it('is built once per role', () => {
    expect(buildGraphQLSchema(project.forRole('admin'))).toBe(
      buildGraphQLSchema(project.forRole('admin'), project),
    );
  });
});

describe('the fixture metadata', () => {
  it('builds valid schemas for every role', () => {
    expect([...fixture.roles].sort()).toEqual(['admin', 'anonymous', 'user']);
    for (const role of [...fixture.roles, 'nobody']) {
      expect(
        () => assertValidSchema(buildGraphQLSchema(fixture.forRole(role))),
        role,
      ).not.toThrow();
    }
  });

  describe('as admin', () => {
    let schema: GraphQLSchema;
    beforeAll(() => {
      schema = buildGraphQLSchema(fixture.forRole('admin'));
    });

    it('names tables, custom columns and custom root fields as Hasura does', () => {
      expect(fieldNames(objectType(schema, 'author'))).toEqual([
        'article_count',
        'articles',
        'articles_aggregate',
        'createdAt',
        'email',
        'id',
        'name',
        'owner_id',
        'profile',
        'published_articles',
        'rating',
        'views_over',
      ]);
      expect(objectType(schema, 'author').getFields()['name']?.description).toBe('display name');
      expect(objectType(schema, 'author').description).toBe(
        'columns and relationships of "author"',
      );
      expect(signature(objectType(schema, 'author').getFields()['profile']!)).toBe(
        'profile(path: String): jsonb!',
      );
      expect(outputFieldType(schema, 'author', 'article_count')).toBe('bigint');
      expect(outputFieldType(schema, 'article', 'author')).toBe('author!');
      expect(outputFieldType(schema, 'article', 'editor')).toBe('author');
      expect(outputFieldType(schema, 'article', 'tags')).toBe('_text');
      expect(rootField(schema, 'query', 'article_by_id')).toBe('article_by_id(id: Int!): article');
      expect(rootField(schema, 'query', 'article_by_pk')).toBeUndefined();
      expect(rootField(schema, 'query', 'library_shelf_by_pk')).toBe(
        'library_shelf_by_pk(code: String!): library_shelf',
      );
      // No primary key: no *_by_pk; no unique constraint: no on_conflict.
      expect(rootField(schema, 'query', 'audit_log_by_pk')).toBeUndefined();
      expect(rootField(schema, 'mutation', 'insert_audit_log')).toBe(
        'insert_audit_log(objects: [audit_log_insert_input!]!): audit_log_mutation_response',
      );
    });

    it('shapes computed fields as Hasura does', () => {
      const author = objectType(schema, 'author').getFields();
      expect(signature(author['article_count']!)).toBe('article_count: bigint');
      expect(signature(author['views_over']!)).toBe(
        'views_over(args: views_over_author_args!): bigint',
      );
      expect(fieldNames(inputType(schema, 'views_over_author_args'))).toEqual(['min_views']);
      expect(inputFieldType(schema, 'views_over_author_args', 'min_views')).toBe('Int');
      expect(signature(author['published_articles']!)).toBe(
        'published_articles(distinct_on: [article_select_column!], limit: Int, offset: Int, order_by: [article_order_by!], where: article_bool_exp): [article!]!',
      );
      // Filtering and ordering take computed fields without arguments of their own.
      expect(inputFieldType(schema, 'author_bool_exp', 'article_count')).toBe(
        'bigint_comparison_exp',
      );
      expect(inputFieldType(schema, 'author_bool_exp', 'published_articles')).toBe(
        'article_bool_exp',
      );
      expect(inputFieldType(schema, 'author_bool_exp', 'views_over')).toBeUndefined();
      expect(inputFieldType(schema, 'author_order_by', 'article_count')).toBe('order_by');
      expect(inputFieldType(schema, 'author_order_by', 'published_articles_aggregate')).toBe(
        'article_aggregate_order_by',
      );
      expect(inputFieldType(schema, 'author_order_by', 'views_over')).toBeUndefined();
    });

    it('offers comparison operators by column type', () => {
      expect(fieldNames(inputType(schema, 'Int_comparison_exp'))).toEqual([
        '_eq',
        '_gt',
        '_gte',
        '_in',
        '_is_null',
        '_lt',
        '_lte',
        '_neq',
        '_nin',
      ]);
      expect(inputFieldType(schema, 'Int_comparison_exp', '_in')).toBe('[Int!]');
      expect(inputFieldType(schema, 'Int_comparison_exp', '_is_null')).toBe('Boolean');
      expect(fieldNames(inputType(schema, 'String_comparison_exp'))).toEqual([
        '_eq',
        '_gt',
        '_gte',
        '_ilike',
        '_in',
        '_iregex',
        '_is_null',
        '_like',
        '_lt',
        '_lte',
        '_neq',
        '_nilike',
        '_nin',
        '_niregex',
        '_nlike',
        '_nregex',
        '_nsimilar',
        '_regex',
        '_similar',
      ]);
      const jsonb = fieldNames(inputType(schema, 'jsonb_comparison_exp'));
      expect(jsonb).toEqual(
        expect.arrayContaining([
          '_contains',
          '_contained_in',
          '_has_key',
          '_has_keys_all',
          '_has_keys_any',
          '_eq',
          '_in',
        ]),
      );
      expect(jsonb).not.toContain('_like');
      expect(inputFieldType(schema, 'jsonb_comparison_exp', '_has_keys_any')).toBe('[String!]');
      expect(inputFieldType(schema, 'author_bool_exp', 'createdAt')).toBe(
        'timestamptz_comparison_exp',
      );
      expect(inputFieldType(schema, 'author_bool_exp', 'articles')).toBe('article_bool_exp');
      expect(inputFieldType(schema, 'author_bool_exp', '_and')).toBe('[author_bool_exp!]');
      expect(inputFieldType(schema, 'author_bool_exp', '_not')).toBe('author_bool_exp');
    });

    it('shapes aggregates and their ordering', () => {
      expect(signature(objectType(schema, 'article_aggregate_fields').getFields()['count']!)).toBe(
        'count(columns: [article_select_column!], distinct: Boolean): Int!',
      );
      expect(fieldNames(objectType(schema, 'article_aggregate'))).toEqual(['aggregate', 'nodes']);
      expect(outputFieldType(schema, 'article_aggregate', 'nodes')).toBe('[article!]!');
      expect(outputFieldType(schema, 'article_sum_fields', 'views')).toBe('bigint');
      expect(outputFieldType(schema, 'article_avg_fields', 'views')).toBe('Float');
      expect(fieldNames(objectType(schema, 'article_sum_fields'))).toEqual([
        'author_id',
        'editor_id',
        'id',
        'views',
      ]);
      // min/max take ordered types: not booleans, jsonb or arrays.
      expect(fieldNames(objectType(schema, 'article_max_fields'))).toEqual([
        'author_id',
        'body',
        'editor_id',
        'id',
        'title',
        'views',
      ]);
      expect(fieldNames(objectType(schema, 'author_max_fields'))).not.toContain('profile');
      expect(fieldNames(inputType(schema, 'article_aggregate_order_by'))).toEqual([
        'avg',
        'count',
        'max',
        'min',
        'stddev',
        'stddev_pop',
        'stddev_samp',
        'sum',
        'var_pop',
        'var_samp',
        'variance',
      ]);
      expect(inputFieldType(schema, 'article_aggregate_order_by', 'sum')).toBe(
        'article_sum_order_by',
      );
      expect(inputFieldType(schema, 'author_order_by', 'articles_aggregate')).toBe(
        'article_aggregate_order_by',
      );
      expect(inputFieldType(schema, 'article_order_by', 'author')).toBe('author_order_by');
      expect(enumValues(schema, 'author_select_column')).toEqual([
        'createdAt',
        'email',
        'id',
        'name',
        'owner_id',
        'profile',
        'rating',
      ]);
    });

    it('shapes mutations', () => {
      expect(rootField(schema, 'mutation', 'update_author')).toBe(
        'update_author(_append: author_append_input, _delete_at_path: author_delete_at_path_input, _delete_elem: author_delete_elem_input, ' +
          '_delete_key: author_delete_key_input, _inc: author_inc_input, _prepend: author_prepend_input, _set: author_set_input, where: author_bool_exp!): author_mutation_response',
      );
      expect(inputFieldType(schema, 'author_delete_at_path_input', 'profile')).toBe('[String!]');
      expect(inputFieldType(schema, 'author_delete_elem_input', 'profile')).toBe('Int');
      expect(inputFieldType(schema, 'author_delete_key_input', 'profile')).toBe('String');
      expect(inputFieldType(schema, 'author_append_input', 'profile')).toBe('jsonb');
      expect(fieldNames(inputType(schema, 'author_inc_input'))).toEqual(['id', 'rating']);
      expect(fieldNames(inputType(schema, 'article_insert_input'))).toEqual([
        'author_id',
        'body',
        'editor_id',
        'published',
        'tags',
        'title',
        'views',
      ]);
      expect(inputFieldType(schema, 'article_insert_input', 'title')).toBe('String');
      expect(enumValues(schema, 'author_constraint')).toEqual(['author_email_key', 'author_pkey']);
      expect(
        inputType(schema, 'author_on_conflict').getFields()['update_columns']?.defaultValue,
      ).toEqual([]);
      expect(inputFieldType(schema, 'author_on_conflict', 'update_columns')).toBe(
        '[author_update_column!]!',
      );
      expect(inputFieldType(schema, 'author_on_conflict', 'constraint')).toBe('author_constraint!');
      expect(fieldNames(inputType(schema, 'author_pk_columns_input'))).toEqual(['id']);
      expect(outputFieldType(schema, 'author_mutation_response', 'affected_rows')).toBe('Int!');
      expect(outputFieldType(schema, 'author_mutation_response', 'returning')).toBe('[author!]!');
      expect(rootField(schema, 'mutation', 'delete_article_by_pk')).toBe(
        'delete_article_by_pk(id: Int!): article',
      );
    });

    it('exposes actions with their custom types', () => {
      expect(rootField(schema, 'mutation', 'createArticle')).toBe(
        'createArticle(input: CreateArticleInput!): CreateArticleOutput',
      );
      expect(schema.getMutationType()?.getFields()['createArticle']?.description).toBe(
        'creates an article',
      );
      expect(rootField(schema, 'query', 'articleStats')).toBe(
        'articleStats(mood: Mood, since: timestamptz): [ArticleStat!]!',
      );
      expect(inputFieldType(schema, 'CreateArticleInput', 'tags')).toBe('[String!]');
      expect(outputFieldType(schema, 'CreateArticleOutput', 'article')).toBe('article');
      expect(enumValues(schema, 'Mood')).toEqual(['HAPPY', 'SAD']);
    });

    it("declares Hasura's @cached directive", () => {
      expect(
        schema
          .getDirective('cached')
          ?.args.map((arg) => `${arg.name}: ${arg.type.toString()} = ${String(arg.defaultValue)}`),
      ).toEqual(['refresh: Boolean! = false', 'ttl: Int! = 60']);
    });
  });

  describe('as a role with permissions', () => {
    let schema: GraphQLSchema;
    beforeAll(() => {
      schema = buildGraphQLSchema(fixture.forRole('user'));
    });

    it('shows only permitted columns, and relationships to tables it may select', () => {
      // views_over is not in the permission's computed_fields; published_articles needs only
      // select on article.
      expect(fieldNames(objectType(schema, 'author'))).toEqual([
        'article_count',
        'articles',
        'articles_aggregate',
        'createdAt',
        'id',
        'name',
        'profile',
        'published_articles',
      ]);
      expect(fieldNames(inputType(schema, 'author_bool_exp'))).toEqual([
        '_and',
        '_not',
        '_or',
        'article_count',
        'articles',
        'createdAt',
        'id',
        'name',
        'profile',
        'published_articles',
      ]);
      expect(enumValues(schema, 'author_select_column')).toEqual([
        'createdAt',
        'id',
        'name',
        'profile',
      ]);
      expect(fieldNames(inputType(schema, 'author_order_by'))).toEqual([
        'article_count',
        'articles_aggregate',
        'createdAt',
        'id',
        'name',
        'profile',
        'published_articles_aggregate',
      ]);
    });

    it('follows allow_aggregations', () => {
      expect(rootField(schema, 'query', 'author_aggregate')).toBeUndefined();
      expect(rootField(schema, 'query', 'article_aggregate')).toBeDefined();
      expect(outputFieldType(schema, 'author', 'articles_aggregate')).toBe('article_aggregate!');
    });

    it('leaves preset and unpermitted columns out of mutation inputs', () => {
      expect(fieldNames(inputType(schema, 'author_insert_input'))).toEqual([
        'email',
        'name',
        'profile',
      ]);
      expect(fieldNames(inputType(schema, 'author_set_input'))).toEqual(['name', 'profile']);
      expect(enumValues(schema, 'author_update_column')).toEqual(['name', 'profile']);
      expect(schema.getType('author_inc_input')).toBeUndefined();
      expect(rootField(schema, 'mutation', 'update_author_by_pk')).toBe(
        'update_author_by_pk(_append: author_append_input, _delete_at_path: author_delete_at_path_input, _delete_elem: author_delete_elem_input, ' +
          '_delete_key: author_delete_key_input, _prepend: author_prepend_input, _set: author_set_input, pk_columns: author_pk_columns_input!): author',
      );
      expect(rootField(schema, 'mutation', 'delete_author')).toBeUndefined();
      expect(rootField(schema, 'mutation', 'delete_article')).toBe(
        'delete_article(where: article_bool_exp!): article_mutation_response',
      );
    });

    it('offers inserts into a table it cannot select without returning rows', () => {
      expect(rootField(schema, 'mutation', 'insert_library_shelf')).toBe(
        'insert_library_shelf(objects: [library_shelf_insert_input!]!, on_conflict: library_shelf_on_conflict): library_shelf_mutation_response',
      );
      expect(rootField(schema, 'mutation', 'insert_library_shelf_one')).toBeUndefined();
      expect(fieldNames(objectType(schema, 'library_shelf_mutation_response'))).toEqual([
        'affected_rows',
      ]);
      expect(rootField(schema, 'query', 'library_shelf')).toBeUndefined();
      expect(enumValues(schema, 'library_shelf_update_column')).toEqual(['_PLACEHOLDER']);
    });

    it('shows backend-only mutations only in the backend-only API', () => {
      const backend = buildGraphQLSchema(fixture.forRole('user', { backendOnly: true }));
      expect(rootField(backend, 'mutation', 'insert_audit_log')).toBe(
        'insert_audit_log(objects: [audit_log_insert_input!]!): audit_log_mutation_response',
      );
      expect(backend).not.toBe(schema);
    });

    it('hides backend-only mutations', () => {
      expect(rootField(schema, 'mutation', 'insert_audit_log')).toBeUndefined();
      expect(schema.getType('audit_log_insert_input')).toBeUndefined();
    });

    it('sees only the actions it is permitted', () => {
      expect(rootField(schema, 'mutation', 'createArticle')).toBeDefined();
      expect(rootField(schema, 'query', 'articleStats')).toBeUndefined();
    });
  });

  describe('as a read-only role', () => {
    it('has no mutation root and no aggregates', () => {
      const schema = buildGraphQLSchema(fixture.forRole('anonymous'));
      expect(schema.getMutationType()).toBeUndefined();
      expect(fieldNames(schema.getQueryType()!)).toEqual([
        'article',
        'article_by_id',
        'author',
        'author_by_pk',
      ]);
      expect(fieldNames(schema.getSubscriptionType()!)).toEqual([
        'article',
        'article_by_id',
        'author',
        'author_by_pk',
      ]);
      // Relationships show whenever the target is selectable, whatever the mapped columns.
      expect(fieldNames(objectType(schema, 'author'))).toEqual([
        'articles',
        'id',
        'name',
        'published_articles',
      ]);
      expect(fieldNames(objectType(schema, 'article'))).toEqual([
        'author',
        'editor',
        'id',
        'title',
      ]);
      for (const name of Object.keys(schema.getTypeMap()))
        expect(name).not.toMatch(/_aggregate$|_aggregate_fields$|_insert_input$|_set_input$/);
      // Ordering by an array relationship's aggregates needs only select on the target (as in Hasura and plan/select.ts).
      expect(inputFieldType(schema, 'author_order_by', 'articles_aggregate')).toBe(
        'article_aggregate_order_by',
      );
    });
  });

  describe('as a role the metadata does not name', () => {
    it('has only the placeholder query field', () => {
      const schema = buildGraphQLSchema(fixture.forRole('nobody'));
      expect(fieldNames(schema.getQueryType()!)).toEqual(['no_queries_available']);
      expect(outputFieldType(schema, 'query_root', 'no_queries_available')).toBe('String!');
      expect(schema.getMutationType()).toBeUndefined();
      expect(schema.getSubscriptionType()).toBeUndefined();
      expect(
        Object.keys(schema.getTypeMap())
          .filter((name) => !name.startsWith('__'))
          .sort(),
      ).toEqual(['Boolean', 'Int', 'String', 'query_root']);
    });
  });

  it('reaches every named type from a root (no orphans)', () => {
    const schema = buildGraphQLSchema(fixture.forRole('admin'));
    for (const type of Object.values(schema.getTypeMap())) expect(getNamedType(type)).toBe(type);
  });
});

describe('the schema and the planner agree', () => {
  const accepted = [
    `{ author(where: { name: { _ilike: "%a%" }, articles: { views: { _gt: 1 } } }, order_by: [{ createdAt: desc }, { articles_aggregate: { count: asc } }],
         distinct_on: [createdAt], limit: 5, offset: 0) {
         id name createdAt profile(path: "$") article_count
         articles(order_by: { views: desc }) { id title tags author { name } editor { id } }
         articles_aggregate(where: { published: { _eq: true } }) {
           aggregate { count(columns: [id], distinct: true) sum { views } avg { views } max { title } min { id } }
           nodes { id }
         }
       } }`,
    `{ article_by_id(id: 1) { id title } article_aggregate { aggregate { count } } }`,
    `{ author(where: { article_count: { _gt: "1" }, published_articles: { views: { _gt: 1 } } },
         order_by: [{ article_count: desc }, { published_articles_aggregate: { count: asc } }]) {
         id published_articles(limit: 1, order_by: { id: asc }) { id } } }`,
    `{ article(order_by: { author: { name: asc }, views: desc_nulls_last }, where: { _or: [{ tags: { _is_null: true } }, { body: { _nlike: "x" } }] }) { id } }`,
    `mutation { update_author(where: { id: { _eq: 1 } }, _set: { name: "Ann" }, _append: { profile: { a: 1 } }) { affected_rows returning { id name } } }`,
    `mutation { update_author_by_pk(pk_columns: { id: 1 }, _delete_key: { profile: "a" }) { id } }`,
    `mutation { insert_library_shelf(objects: [{ code: "A", label: "a" }], on_conflict: { constraint: shelf_pkey, update_columns: [] }) { affected_rows } }`,
    `mutation { delete_article(where: { id: { _eq: -1 } }) { affected_rows returning { id } } }`,
  ];
  const refused = [
    `{ author { email } }`,
    `{ author { views_over(args: { min_views: 1 }) } }`,
    `{ author_aggregate { aggregate { count } } }`,
    `{ author { name(path: "a") } }`,
    `{ author(where: { email: { _eq: "x" } }) { id } }`,
    `{ author(order_by: { owner_id: asc }) { id } }`,
    `{ library_shelf { code } }`,
    `mutation { insert_author(objects: [{ owner_id: "x", name: "n" }]) { affected_rows } }`,
    `mutation { update_author(where: {}, _inc: { id: 1 }) { affected_rows } }`,
    `mutation { delete_author(where: {}) { affected_rows } }`,
  ];
  const session: Session = {
    role: 'user',
    variables: { 'x-hasura-role': 'user', 'x-hasura-user-id': 'u1' },
    isAdmin: false,
  };
  const plan = (query: string) =>
    planOperation(
      { query },
      { model: fixture, schema: fixture.forRole('user'), session, stringifyNumericTypes: true },
    );

  it.each(accepted.map((query) => [query.replace(/\s+/g, ' ').slice(0, 80), query]))(
    'accepts %s',
    (_label, query) => {
      expect(
        validate(buildGraphQLSchema(fixture.forRole('user')), parse(query)).map(
          (error) => error.message,
        ),
      ).toEqual([]);
      expect(() => plan(query)).not.toThrow();
    },
  );

  it.each(refused.map((query) => [query, query]))('refuses %s', (_label, query) => {
    expect(validate(buildGraphQLSchema(fixture.forRole('user')), parse(query))).not.toEqual([]);
    expect(() => plan(query)).toThrow(
      expect.objectContaining({ code: 'validation-failed' }) as Error,
    );
  });
});
