import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

import { createActionsApp, type ActionsAppOptions } from '@app/actions/app';
import { createEngine } from '@app/engine';
import {
  applySeeds,
  createPool,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  migrateUp,
} from '@app/engine/database';

import type { TestDatabase } from '../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../support/engine.ts';
import { DEV_JWT_SECRET, signHs256, userClaims } from '../../support/jwt.ts';

/*
 * The product's action path as clients reach it: the real engine serving the product metadata,
 * calling the actions service over HTTP, on a migrated and seeded database.
 */

const METADATA_DIR = fileURLToPath(new URL('../../../hasura/metadata/', import.meta.url));
export const ACTIONS_SECRET = 'test-actions-secret-0123456789';
/** Long enough that the seeded offline rates count as fresh. */
export const TEN_YEARS = 315_360_000;

const silent = { info: () => {}, warn: () => {}, error: () => {} };

export interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions: Record<string, unknown> }>;
}

/** Who calls: a user id (role `user`), or a user acting in a staff role. */
export type Caller = string | { userId: string; role: 'user' | 'manager' | 'administrator' };

export interface ActionsStack {
  engineUrl: string;
  actionsUrl: string;
  /** POSTs to the engine as `caller` (anonymous when omitted). */
  graphql(query: string, variables: Record<string, unknown>, caller?: Caller): Promise<GraphqlBody>;
  close(): Promise<void>;
}

/**
 * Applies migrations and seeds, and adds users with the given ids (e-mail `<name>@example.com`,
 * proven: customers who signed up and confirmed their address; unproven accounts have limits
 * of their own, decision 016).
 */
export async function prepareDatabase(
  db: TestDatabase,
  users: Record<string, string>,
): Promise<void> {
  await migrateUp(db.pool, DEFAULT_MIGRATIONS_DIR);
  await applySeeds(db.pool, DEFAULT_SEEDS_DIR);
  for (const [name, id] of Object.entries(users)) {
    await db.pool.query(
      `INSERT INTO portal_users (id, email, is_verified_email) VALUES ($1, $2, true)`,
      [id, `${name}@example.com`],
    );
  }
}

/**
 * Starts the actions service and an engine pointed at it. `env` is read on every call, so a
 * test may change it (and `now`) between requests.
 */
export async function startActionsStack(
  db: TestDatabase,
  options: {
    env: ActionsAppOptions['env'];
    now?: () => Date;
    /** Sends the event-trigger e-mails (e.g. to a tests/support/mailbox.ts server). */
    mailer?: ActionsAppOptions['mailer'];
    /** More engine environment, e.g. BOT_EVENTS_URL and BOT_EVENTS_SECRET for the bot triggers. */
    engineEnvironment?: Record<string, string>;
  },
): Promise<ActionsStack> {
  // The service's own pool, as in production; ended before the database is dropped.
  const pool = createPool(db.url, 4);
  const app = createActionsApp({
    env: options.env,
    pool,
    logger: silent,
    ...(options.now ? { now: options.now } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const actionsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const engine = await createEngine({
    databaseUrl: db.url,
    metadata: { directory: METADATA_DIR },
    adminSecret: TEST_ADMIN_SECRET,
    jwtSecret: DEV_JWT_SECRET,
    unauthorizedRole: 'anonymous',
    poolSize: 4,
    environment: {
      ...options.engineEnvironment,
      ACTIONS_BASE_URL: actionsUrl,
      ACTIONS_SECRET: options.env.ACTIONS_SECRET,
    },
  });
  const engineUrl = (await engine.listen(0)).url;
  return {
    engineUrl,
    actionsUrl,
    async graphql(query, variables, caller) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (caller !== undefined) {
        const { userId, role } =
          typeof caller === 'string' ? { userId: caller, role: 'user' } : caller;
        const roles = role === 'user' ? ['user'] : ['user', role];
        headers['authorization'] = `Bearer ${signHs256(userClaims(userId, roles))}`;
        headers['x-hasura-role'] = role;
      }
      const response = await fetch(`${engineUrl}/v1/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphqlBody;
    },
    async close() {
      await engine.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}
