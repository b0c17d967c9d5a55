import { printSchema } from 'graphql';
import type pg from 'pg';

import { loadMetadata } from '../metadata/load.ts';

import { buildGraphQLSchema } from './graphql-schema.ts';
import { loadSchemaModel } from './load-model.ts';

/**
 * The GraphQL SDL the engine serves to each role (what introspection answers for it), from the
 * metadata in `metadataDir` against the database behind `pool`. Clients generate their typed
 * documents from these; `unknownRoles` lists roles no permission names (they see no tables).
 */
export async function printRoleSchemas<Role extends string>(
  pool: pg.Pool,
  metadataDir: string,
  roles: readonly Role[],
): Promise<{ schemas: Record<Role, string>; unknownRoles: Role[] }> {
  const metadata = await loadMetadata({ directory: metadataDir });
  const model = await loadSchemaModel(pool, metadata);
  const schemas = {} as Record<Role, string>;
  for (const role of roles) {
    schemas[role] = `${printSchema(buildGraphQLSchema(model.forRole(role), model))}\n`;
  }
  return { schemas, unknownRoles: roles.filter((role) => !model.roles.has(role)) };
}
