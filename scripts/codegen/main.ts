/*
 * `npm run codegen`: prints the engine's schema for each portal role into client/src/graphql/schema/,
 * generates the typed documents in client/src/graphql/generated/ and Hasura's allow-list of them
 * (hasura/metadata/query_collections.yaml, allow_list.yaml). Run it after changing a
 * migration, the metadata or an operation; a test fails while the committed files are stale.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

import { allowlistFiles } from './allowlist.ts';
import { generateTypedDocuments } from './generate.ts';
import { printPortalSchemas } from './schemas.ts';
import { GRAPHQL_ROLES, schemaFile } from './targets.ts';

const schemas = await printPortalSchemas();
for (const role of GRAPHQL_ROLES) await writeFile(schemaFile(role), schemas[role]);
const files = await generateTypedDocuments(schemas);
for (const [file, content] of files) await writeFile(file, content);
// After the typed documents: the allow-list holds them exactly as the clients send them.
for (const [file, content] of await allowlistFiles()) await writeFile(file, content);
process.stdout.write(
  `wrote ${GRAPHQL_ROLES.length} schemas and ${files.size} typed document modules under ${path.relative(process.cwd(), path.dirname(path.dirname(schemaFile('user'))))}\n`,
);
