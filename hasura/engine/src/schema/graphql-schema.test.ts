import { assertValidSchema, getNamedType, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';

import { buildGraphQLSchema } from './graphql-schema.ts';
import {
  enumValues,
  fieldNames,
  fixture,
  inputFieldType,
  inputType,
  objectType,
  outputFieldType,
  project,
  rootField,
  signature,
  useSchemaModels,
} from './graphql-schema-world.ts';

/*
 * The GraphQL schema the engine builds: the project's metadata for every role, and the fixture
 * metadata as admin. The other roles and the planner's agreement: graphql-schema-roles.test.ts.
 */

useSchemaModels();

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

  it('reaches every named type from a root (no orphans)', () => {
    const schema = buildGraphQLSchema(fixture.forRole('admin'));
    for (const type of Object.values(schema.getTypeMap())) expect(getNamedType(type)).toBe(type);
  });
});
