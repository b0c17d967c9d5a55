import path from 'node:path';

import {
  createPool,
  DEFAULT_MIGRATIONS_DIR,
  HASURA_PROJECT_DIR,
  migrateUp,
} from '@app/engine/database';
import { startEmbeddedPostgres } from '@app/engine/embedded-postgres';
import { printRoleSchemas } from '@app/engine/schema-sdl';

import { GRAPHQL_ROLES, type GraphqlRole } from './targets.ts';

/**
 * The SDL the engine serves to each of the portal's roles, built from the project's migrations
 * and metadata on a throwaway embedded database (so it needs no running stack).
 */
export async function printPortalSchemas(): Promise<Record<GraphqlRole, string>> {
  const embedded = await startEmbeddedPostgres({ port: 0 });
  const pool = createPool(embedded.url, 2);
  try {
    await migrateUp(pool, DEFAULT_MIGRATIONS_DIR);
    const { schemas, unknownRoles } = await printRoleSchemas(
      pool,
      path.join(HASURA_PROJECT_DIR, 'metadata'),
      GRAPHQL_ROLES,
    );
    if (unknownRoles.length > 0) {
      throw new Error(`no permission in the metadata names role(s) ${unknownRoles.join(', ')}`);
    }
    return schemas;
  } finally {
    await pool.end();
    await embedded.stop();
  }
}
