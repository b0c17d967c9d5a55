import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { startTestEngine, type TestEngine } from '../../support/engine.ts';
import { createUser, migratedDatabase, PASSWORD, startAuth, type AuthServer } from './harness.ts';

const OWN_ROW = { id: { _eq: 'X-Hasura-User-Id' } };

/** Just enough metadata: users see their own portal_users row; managers see every row. */
const metadata = {
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [
        {
          table: { schema: 'public', name: 'portal_users' },
          select_permissions: [
            { role: 'user', permission: { columns: ['id', 'email'], filter: OWN_ROW } },
            { role: 'manager', permission: { columns: ['id', 'email'], filter: {} } },
          ],
        },
      ],
    },
  ],
};

/*
 * The engine accepts this service's access tokens with the right user and roles (its default
 * HASURA_GRAPHQL_JWT_SECRET is ours), and refuses one whose payload was changed.
 */
describe.each(databaseTargets)('access tokens at the engine on $name', (target) => {
  let db: TestDatabase;
  let server: AuthServer;
  let engine: TestEngine;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    server = await startAuth(db, undefined);
    engine = await startTestEngine(db.url, { object: metadata });
  });
  afterAll(async () => {
    await engine?.close();
    await server?.close();
    await db?.dispose();
  });

  it('gives the user their own row, and the manager role only to managers', async () => {
    const alice = await createUser(db, { email: 'alice@example.com', password: PASSWORD });
    await createUser(db, { email: 'bob@example.com', password: PASSWORD, roles: ['manager'] });
    const aliceToken = (
      await server.post('/login', { email: 'alice@example.com', password: PASSWORD })
    ).body['accessToken'] as string;
    const bobToken = (await server.post('/login', { email: 'bob@example.com', password: PASSWORD }))
      .body['accessToken'] as string;

    const own = await engine.graphql('{ portal_users { id email } }', {
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(own.body.data).toEqual({ portal_users: [{ id: alice, email: 'alice@example.com' }] });

    const escalate = await engine.graphql('{ portal_users { id } }', {
      headers: { authorization: `Bearer ${aliceToken}`, 'x-hasura-role': 'manager' },
    });
    expect(escalate.body.errors?.[0]?.extensions.code).toBe('access-denied');

    const manager = await engine.graphql('{ portal_users { email } }', {
      headers: { authorization: `Bearer ${bobToken}`, 'x-hasura-role': 'manager' },
    });
    expect(manager.body.data?.['portal_users']).toHaveLength(2);
  });

  it('refuses a token whose payload was tampered with', async () => {
    await createUser(db, { email: 'carol@example.com', password: PASSWORD });
    const token = (await server.post('/login', { email: 'carol@example.com', password: PASSWORD }))
      .body['accessToken'] as string;
    const [head, body, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<
      string,
      Record<string, unknown>
    >;
    const hasura = claims['https://hasura.io/jwt/claims']!;
    hasura['x-hasura-allowed-roles'] = ['user', 'admin'];
    hasura['x-hasura-default-role'] = 'admin';
    const forged = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const reply = await engine.graphql('{ portal_users { id } }', {
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(reply.body.errors?.[0]?.extensions.code).toBe('invalid-jwt');
    const unsigned = await engine.graphql('{ portal_users { id } }', {
      headers: {
        authorization: `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body}.`,
      },
    });
    expect(unsigned.body.errors?.[0]?.extensions.code).toBe('invalid-jwt');
  });
});
