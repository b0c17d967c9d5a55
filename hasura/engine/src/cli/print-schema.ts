/*
 * Prints the GraphQL SDL the engine serves to one role, for GraphQL Code Generator and
 * reviews, from the project's metadata against the database at DATABASE_URL:
 *   print-schema.ts [--role admin]        (npm run schema:print -- --role user > schema.graphql)
 * The output is what introspection answers for that role (printSchema of the same schema).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import * as z from 'zod';

import { loadEnv } from '@app/shared/env';

import { createPool, HASURA_PROJECT_DIR } from '../database/index.ts';
import { printRoleSchemas } from '../schema/print-sdl.ts';

const env = loadEnv(
  z.object({
    DATABASE_URL: z.string({ error: 'set DATABASE_URL, e.g. the URL npm start prints' }).min(1),
  }),
);

const USAGE = 'usage: print-schema.ts [--role ROLE] [--metadata DIR]';

let role: string;
let metadataDir: string;
try {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'admin' },
      metadata: { type: 'string', default: path.join(HASURA_PROJECT_DIR, 'metadata') },
    },
  });
  role = values.role;
  metadataDir = values.metadata;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}

const pool = createPool(env.DATABASE_URL, 2);
try {
  const { schemas, unknownRoles } = await printRoleSchemas(pool, metadataDir, [role]);
  if (unknownRoles.length > 0) {
    process.stderr.write(
      `note: no permission in the metadata names role ${JSON.stringify(role)}; it sees no tables\n`,
    );
  }
  process.stdout.write(schemas[role] ?? '');
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
