import { parse, validate, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Session } from '../auth/session.ts';
import { planOperation } from '../plan/operation.ts';

import { buildGraphQLSchema } from './graphql-schema.ts';
import {
  enumValues,
  fieldNames,
  fixture,
  inputFieldType,
  inputType,
  objectType,
  outputFieldType,
  rootField,
  useSchemaModels,
} from './graphql-schema-world.ts';

/*
 * The fixture metadata's schema for the roles other than admin (with permissions, read-only,
 * not named), and the schema and the planner agreeing on what they accept.
 */

useSchemaModels();

describe('the fixture metadata', () => {
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
