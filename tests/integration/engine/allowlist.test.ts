import path from 'node:path';
import { readFile } from 'node:fs/promises';

import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { getIntrospectionQuery, Kind, parse, print, visit } from 'graphql';

import { createEngine, type Engine } from '@app/engine';
import {
  applySeeds,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  HASURA_PROJECT_DIR,
  migrateUp,
} from '@app/engine/database';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';
import { DEV_JWT_SECRET, signHs256, userClaims } from '../../support/jwt.ts';

/*
 * Issue 19, point 8: with HASURA_GRAPHQL_ENABLE_ALLOWLIST the engine runs, for every role but
 * admin, only the operations of the metadata's allow-list (generated from the clients' own
 * documents by `npm run codegen`), and visitors and customers cannot introspect the schema.
 * The rules are the official engine's, read from its source (hasura/engine/src/plan/allowlist.ts
 * cites them): whole documents compared with `__typename` fields dropped, formatting aside;
 * refused as `validation-failed` "query is not allowed".
 */

const USER = '11111111-1111-4111-8111-111111111111';
const userHeaders = { authorization: `Bearer ${signHs256(userClaims(USER))}` };

interface Collection {
  definition: { queries: Array<{ name: string; query: string }> };
}

/** Apollo Client's way of sending a document: `__typename` in every selection set. */
function withTypenames(query: string): string {
  return print(
    visit(parse(query), {
      SelectionSet(node) {
        const has = node.selections.some(
          (s) => s.kind === Kind.FIELD && s.name.value === '__typename',
        );
        if (has) return undefined;
        return {
          ...node,
          selections: [
            ...node.selections,
            { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } },
          ],
        };
      },
    }),
  );
}

describe('security regression: the allow-list and introspection rule of production', () => {
  let db: TestDatabase;
  let engine: Engine;
  let url: string;
  let queries: Array<{ name: string; query: string }>;

  const post = async (query: string, headers: Record<string, string> = {}, variables = {}) => {
    const response = await fetch(`${url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: unknown;
      errors?: Array<{ message: string; extensions: { code: string } }>;
    };
  };

  beforeAll(async () => {
    db = await databaseTargets[0]!.create();
    await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
    await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
    const file = path.join(HASURA_PROJECT_DIR, 'metadata', 'query_collections.yaml');
    queries = (parseYaml(await readFile(file, 'utf8')) as Collection[])[0]!.definition.queries;
    engine = await createEngine({
      databaseUrl: db.url,
      metadata: { directory: path.join(HASURA_PROJECT_DIR, 'metadata') },
      adminSecret: TEST_ADMIN_SECRET,
      jwtSecret: DEV_JWT_SECRET,
      unauthorizedRole: 'anonymous',
      poolSize: 2,
      enableAllowlist: true,
    });
    url = (await engine.listen(0)).url;
  });
  afterAll(async () => {
    await engine?.close();
    await db?.dispose();
  });

  it('lets every client operation through, as written and as Apollo sends it', async () => {
    expect(queries.length).toBeGreaterThan(40);
    for (const { name, query } of queries) {
      for (const text of [query, withTypenames(query), query.replace(/\s+/g, ' ')]) {
        const body = await post(text, userHeaders);
        // Variables are missing, so most answer some error: never the allow-list's.
        expect(body.errors?.[0]?.message ?? '', name).not.toBe('query is not allowed');
      }
    }
  });

  it('refuses any other operation for every role but admin, over HTTP and WebSocket', async () => {
    const other = '{ currencies { code } }';
    const callers: Array<Record<string, string>> = [
      {},
      userHeaders,
      { 'x-hasura-admin-secret': TEST_ADMIN_SECRET, 'x-hasura-role': 'user' },
    ];
    for (const headers of callers) {
      const body = await post(other, headers);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]).toMatchObject({
        message: 'query is not allowed',
        extensions: { code: 'validation-failed' },
      });
    }
    // A listed operation with one field more is another operation.
    const catalog = queries.find((q) => q.name === 'ExchangeCatalog')!.query;
    const widened = catalog.replace('memo_required', 'memo_required\n enabled');
    expect((await post(widened)).errors?.[0]?.message).toBe('query is not allowed');

    const admin = await post(other, { 'x-hasura-admin-secret': TEST_ADMIN_SECRET });
    expect(admin.errors).toBeUndefined();

    const client = createClient({
      url: url.replace('http', 'ws') + '/v1/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { headers: userHeaders },
      retryAttempts: 0,
    });
    try {
      const error = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: 'subscription { currencies { code } }' },
          { next: () => resolve('answered'), error: resolve, complete: () => resolve('done') },
        );
      });
      expect(JSON.stringify(error)).toContain('query is not allowed');
    } finally {
      await client.dispose();
    }
  });

  it('refuses introspection to visitors and customers, even without the allow-list', async () => {
    for (const headers of [{}, userHeaders]) {
      const body = await post(getIntrospectionQuery(), headers);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions.code).toBe('validation-failed');
    }
    const open = await createEngine({
      databaseUrl: db.url,
      metadata: { directory: path.join(HASURA_PROJECT_DIR, 'metadata') },
      adminSecret: TEST_ADMIN_SECRET,
      jwtSecret: DEV_JWT_SECRET,
      unauthorizedRole: 'anonymous',
      poolSize: 2,
    });
    const openUrl = (await open.listen(0)).url;
    const introspect = async (headers: Record<string, string>) => {
      const response = await fetch(`${openUrl}/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
      });
      return (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> };
    };
    try {
      expect((await introspect({})).errors?.[0]?.message).toBe(
        'introspection is disabled for this role',
      );
      expect((await introspect(userHeaders)).errors?.[0]?.message).toBe(
        'introspection is disabled for this role',
      );
      const manager = {
        authorization: `Bearer ${signHs256(userClaims(USER, ['user', 'manager']))}`,
        'x-hasura-role': 'manager',
      };
      expect((await introspect(manager)).data).toEqual({
        __schema: { queryType: { name: 'query_root' } },
      });
      // Tools holding the admin secret may read any role's schema.
      const asUser = { 'x-hasura-admin-secret': TEST_ADMIN_SECRET, 'x-hasura-role': 'user' };
      expect((await introspect(asUser)).errors).toBeUndefined();
    } finally {
      await open.close();
    }
  });
});
