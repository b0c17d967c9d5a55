import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema } from 'graphql';
import { parse as parseYaml } from 'yaml';

import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from '../../integration/actions/harness.ts';
import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';
import { signHs256, userClaims } from '../../support/jwt.ts';
import { answersHealthy } from '../support/health.ts';

import { ROLES, type Role, type Shot, type ShotContext } from './graphql-shots.ts';
import { judgeGraphql, sendCounted, type Tally, type Verdict } from './tally.ts';

/*
 * The product as the hostile-input checks attack it: a migrated, seeded database with a user,
 * a manager and an administrator, the real engine serving hasura/metadata with the actions
 * service behind it (tests/integration/actions/harness.ts), each role's schema introspected.
 */

const ACTIONS_YAML = new URL('../../../hasura/metadata/actions.yaml', import.meta.url);

/** Field names of every action in the product metadata. */
export function actionNames(): Set<string> {
  const parsed = parseYaml(readFileSync(ACTIONS_YAML, 'utf8')) as {
    actions: Array<{ name: string }>;
  };
  return new Set(parsed.actions.map((action) => action.name));
}

export interface HostileStack {
  db: TestDatabase;
  stack: ActionsStack;
  ids: Record<Exclude<Role, 'anonymous'>, string>;
  context: ShotContext;
  /** The headers a role's requests carry (a JWT as the auth service issues it). */
  credentials(role: Role): Record<string, string>;
  /** Sends a shot to the engine and counts its verdict. */
  send(shot: Shot, tally: Tally, timeoutMs?: number): Promise<Verdict>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export async function startHostileStack(target: DatabaseTarget): Promise<HostileStack> {
  const db = await target.create();
  const ids = { user: randomUUID(), manager: randomUUID(), administrator: randomUUID() };
  await prepareDatabase(db, ids);
  await db.pool.query(
    `INSERT INTO public.roles (user_id, role_type) VALUES ($1, 'manager'), ($2, 'admin')`,
    [ids.manager, ids.administrator],
  );
  const stack = await startActionsStack(db, {
    env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
  });
  const tokens = new Map<Role, Record<string, string>>();
  for (const role of ROLES) {
    if (role === 'anonymous') {
      tokens.set(role, {});
      continue;
    }
    const roles = role === 'user' ? ['user'] : ['user', role];
    tokens.set(role, {
      authorization: `Bearer ${signHs256(userClaims(ids[role], roles, 24 * 3600))}`,
      'x-hasura-role': role,
    });
  }
  const credentials = (role: Role) => tokens.get(role)!;

  // Introspected with the admin secret in each role: the metadata disables introspection for
  // visitors and customers (graphql_schema_introspection.yaml).
  const schemas = {} as Record<Role, GraphQLSchema>;
  for (const role of ROLES) {
    const response = await fetch(`${stack.engineUrl}/v1/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hasura-admin-secret': TEST_ADMIN_SECRET,
        'x-hasura-role': role,
      },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    const body = (await response.json()) as { data: Parameters<typeof buildClientSchema>[0] };
    schemas[role] = buildClientSchema(body.data);
  }
  const { rows } = await db.pool.query<{ email: string }>(
    'SELECT lower(email) AS email FROM public.portal_users WHERE email IS NOT NULL',
  );
  const context: ShotContext = {
    schemas,
    actions: actionNames(),
    existingEmails: rows.map((row) => row.email),
  };

  async function send(shot: Shot, tally: Tally, timeoutMs = 60_000): Promise<Verdict> {
    const headers = { ...(shot.credentials ? credentials(shot.role) : {}), ...shot.headers };
    const answer = await sendCounted(
      tally,
      shot.kind,
      { url: `${stack.engineUrl}${shot.path}`, method: shot.method, headers, body: shot.body },
      fc.stringify(shot),
      timeoutMs,
    );
    if (typeof answer === 'string') return answer;
    const { status, text } = answer;
    // Not our GraphQL endpoint (another path, another method): a clear status is the answer.
    if (shot.path !== '/v1/graphql' || shot.method !== 'POST') {
      const verdict: Verdict = status >= 500 ? '5xx' : status >= 400 ? 'refused' : 'ok';
      return tally.count(
        shot.kind,
        verdict,
        status,
        [],
        `${text.slice(0, 200)} ${fc.stringify(shot)}`,
      );
    }
    const { verdict, codes } = judgeGraphql(status, text);
    return tally.count(
      shot.kind,
      verdict,
      status,
      codes,
      `${text.slice(0, 300)} ← ${fc.stringify(shot)}`,
    );
  }

  return {
    db,
    stack,
    ids,
    context,
    credentials,
    send,
    healthy: () => answersHealthy(`${stack.engineUrl}/healthz`, 10_000),
    async close() {
      await stack.close();
      await db.dispose();
    },
  };
}
