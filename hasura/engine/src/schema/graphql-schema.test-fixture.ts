/*
 * Test support for the GraphQL schema suites: an embedded database with the project's
 * migrations and a small fixture of its own, the fixture's metadata, and the schema model
 * built the way the engine builds it.
 */
import path from 'node:path';

import type pg from 'pg';

import { introspect } from '../catalog/introspect.ts';
import {
  createPool,
  DEFAULT_MIGRATIONS_DIR,
  HASURA_PROJECT_DIR,
  migrateUp,
} from '../database/index.ts';
import { startEmbeddedPostgres } from '../embedded-postgres/index.ts';
import { loadMetadata } from '../metadata/load.ts';
import type { MetadataSource } from '../engine-options.ts';

import { buildSchemaModel } from './build.ts';
import type { SchemaModel } from './model.ts';

export const PROJECT_METADATA: MetadataSource = {
  directory: path.join(HASURA_PROJECT_DIR, 'metadata'),
};

/** Tables beside the product's (no name clashes), covering the shapes the schema must get right. */
export const FIXTURE_SQL = `
CREATE TABLE author (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text UNIQUE,
  rating numeric,
  profile jsonb NOT NULL DEFAULT '{}',
  owner_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON COLUMN author.name IS 'display name';
CREATE TABLE article (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  author_id integer NOT NULL REFERENCES author (id),
  editor_id integer REFERENCES author (id),
  title varchar(200) NOT NULL,
  body text,
  tags text[],
  views bigint NOT NULL DEFAULT 0,
  published boolean NOT NULL DEFAULT false
);
CREATE SCHEMA library;
CREATE TABLE library.shelf (code text PRIMARY KEY, label text);
CREATE TABLE audit_log (id bigserial, message text);
CREATE FUNCTION author_article_count(author_row author) RETURNS bigint
  LANGUAGE sql STABLE AS $$ SELECT count(*) FROM article WHERE author_id = author_row.id $$;
CREATE FUNCTION author_published_articles(author_row author) RETURNS SETOF article
  LANGUAGE sql STABLE AS $$ SELECT * FROM article WHERE author_id = author_row.id AND published $$;
CREATE FUNCTION author_views_over(author_row author, min_views integer) RETURNS bigint
  LANGUAGE sql STABLE AS $$ SELECT count(*) FROM article WHERE author_id = author_row.id AND views > min_views $$;
INSERT INTO author (name, email, owner_id) VALUES ('Ann', 'ann@example.com', 'u1'), ('Bob', NULL, 'u2');
INSERT INTO article (author_id, title, views, published) VALUES (1, 'First', 10, true), (1, 'Second', 5, false), (2, 'Third', 7, true);
`;

/** export_metadata shape, as `createEngine({ metadata: { object } })` takes it. */
export const FIXTURE_METADATA = {
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [
        {
          table: { schema: 'public', name: 'author' },
          configuration: { column_config: { created_at: { custom_name: 'createdAt' } } },
          array_relationships: [
            {
              name: 'articles',
              using: {
                foreign_key_constraint_on: {
                  table: { schema: 'public', name: 'article' },
                  column: 'author_id',
                },
              },
            },
          ],
          computed_fields: [
            {
              name: 'article_count',
              definition: { function: { schema: 'public', name: 'author_article_count' } },
            },
            {
              name: 'published_articles',
              definition: { function: { schema: 'public', name: 'author_published_articles' } },
            },
            {
              name: 'views_over',
              definition: { function: { schema: 'public', name: 'author_views_over' } },
            },
          ],
          select_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['id', 'name', 'profile', 'created_at'],
                computed_fields: ['article_count'],
                filter: {},
              },
            },
            { role: 'anonymous', permission: { columns: ['id', 'name'], filter: {}, limit: 10 } },
          ],
          insert_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['name', 'email', 'profile', 'owner_id'],
                check: {},
                set: { owner_id: 'X-Hasura-User-Id' },
              },
            },
          ],
          update_permissions: [
            {
              role: 'user',
              permission: {
                columns: ['name', 'profile', 'owner_id'],
                filter: { owner_id: { _eq: 'X-Hasura-User-Id' } },
                set: { owner_id: 'X-Hasura-User-Id' },
              },
            },
          ],
        },
        {
          table: { schema: 'public', name: 'article' },
          configuration: { custom_root_fields: { select_by_pk: 'article_by_id' } },
          object_relationships: [
            { name: 'author', using: { foreign_key_constraint_on: 'author_id' } },
            { name: 'editor', using: { foreign_key_constraint_on: 'editor_id' } },
          ],
          select_permissions: [
            { role: 'user', permission: { columns: '*', filter: {}, allow_aggregations: true } },
            {
              role: 'anonymous',
              permission: { columns: ['id', 'title'], filter: { published: { _eq: true } } },
            },
          ],
          insert_permissions: [
            { role: 'user', permission: { columns: ['author_id', 'title', 'body'], check: {} } },
          ],
          delete_permissions: [
            {
              role: 'user',
              permission: { filter: { author: { owner_id: { _eq: 'X-Hasura-User-Id' } } } },
            },
          ],
        },
        {
          table: { schema: 'library', name: 'shelf' },
          insert_permissions: [
            { role: 'user', permission: { columns: ['code', 'label'], check: {} } },
          ],
        },
        {
          table: { schema: 'public', name: 'audit_log' },
          insert_permissions: [
            { role: 'user', permission: { columns: ['message'], check: {}, backend_only: true } },
          ],
        },
      ],
    },
  ],
  actions: [
    {
      name: 'createArticle',
      definition: {
        handler: 'http://127.0.0.1:9/create-article',
        type: 'mutation',
        kind: 'synchronous',
        arguments: [{ name: 'input', type: 'CreateArticleInput!' }],
        output_type: 'CreateArticleOutput',
      },
      permissions: [{ role: 'user' }],
      comment: 'creates an article',
    },
    {
      name: 'articleStats',
      definition: {
        handler: 'http://127.0.0.1:9/article-stats',
        type: 'query',
        arguments: [
          { name: 'since', type: 'timestamptz' },
          { name: 'mood', type: 'Mood' },
        ],
        output_type: '[ArticleStat!]!',
      },
      permissions: [],
    },
  ],
  custom_types: {
    scalars: [],
    enums: [{ name: 'Mood', values: [{ value: 'HAPPY' }, { value: 'SAD' }] }],
    input_objects: [
      {
        name: 'CreateArticleInput',
        fields: [
          { name: 'title', type: 'String!' },
          { name: 'tags', type: '[String!]' },
        ],
      },
    ],
    objects: [
      {
        name: 'CreateArticleOutput',
        fields: [{ name: 'article_id', type: 'Int!' }],
        relationships: [
          {
            name: 'article',
            type: 'object',
            remote_table: { schema: 'public', name: 'article' },
            field_mapping: { article_id: 'id' },
          },
        ],
      },
      {
        name: 'ArticleStat',
        fields: [
          { name: 'day', type: 'String!' },
          { name: 'count', type: 'Int!' },
        ],
        relationships: [],
      },
    ],
  },
};

export interface FixtureDatabase {
  url: string;
  pool: pg.Pool;
  stop(): Promise<void>;
}

/** Embedded PostgreSQL with the project's migrations applied and the fixture tables created. */
export async function startFixtureDatabase(): Promise<FixtureDatabase> {
  const embedded = await startEmbeddedPostgres({ port: 0 });
  const pool = createPool(embedded.url, 4);
  try {
    await migrateUp(pool, DEFAULT_MIGRATIONS_DIR);
    await pool.query(FIXTURE_SQL);
  } catch (error) {
    await pool.end();
    await embedded.stop();
    throw error;
  }
  return {
    url: embedded.url,
    pool,
    async stop() {
      await pool.end();
      await embedded.stop();
    },
  };
}

/** The schema model for some metadata, built as createEngine builds it. */
export async function loadSchemaModel(pool: pg.Pool, source: MetadataSource): Promise<SchemaModel> {
  const metadata = await loadMetadata(source);
  const tables = metadata.sources[0]?.tables ?? [];
  const catalog = await introspect(
    pool,
    tables.map((table) => table.table),
    tables.flatMap((table) => table.computed_fields.map((field) => field.definition.function)),
  );
  return buildSchemaModel(metadata, catalog);
}
