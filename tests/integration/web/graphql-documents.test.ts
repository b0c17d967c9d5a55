import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { Kind, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';

import { allowlistFiles } from '../../../scripts/codegen/allowlist.ts';
import { generateTypedDocuments } from '../../../scripts/codegen/generate.ts';
import { printPortalSchemas } from '../../../scripts/codegen/schemas.ts';
import { GRAPHQL_ROLES, schemaFile, type GraphqlRole } from '../../../scripts/codegen/targets.ts';

/*
 * The web portal's typed documents are generated from the schema the engine serves to each
 * role and committed. These fail while the committed files are stale: a migration, the metadata
 * or an operation changed without `npm run codegen`, so the types would lie to the pages.
 */

let schemas: Record<GraphqlRole, string>;

beforeAll(async () => {
  schemas = await printPortalSchemas();
});

describe('the web portal GraphQL documents', () => {
  it.each(GRAPHQL_ROLES)('commit the schema the engine serves to %s', async (role) => {
    const committed = await readFile(schemaFile(role), 'utf8');
    expect(committed, 'run `npm run codegen`').toBe(schemas[role]);
  });

  it('commit the typed documents generated from those schemas', async () => {
    const files = await generateTypedDocuments(schemas);
    expect(files.size).toBe(GRAPHQL_ROLES.length);
    for (const [file, content] of files) {
      const committed = await readFile(file, 'utf8');
      expect(committed, `${path.basename(file)}: run \`npm run codegen\``).toBe(content);
    }
  });

  it('commit the allow-list of exactly those documents', async () => {
    for (const [file, content] of await allowlistFiles()) {
      const committed = await readFile(file, 'utf8');
      expect(committed, `${path.basename(file)}: run \`npm run codegen\``).toBe(content);
    }
  });

  it('refuses an operation that asks for a field its role cannot see', async () => {
    // A visitor's schema has no users table: generating a visitor query of it must fail.
    const user = parse(schemas.user);
    const anonymous = parse(schemas.anonymous);
    const hasUsers = (document: typeof user) =>
      document.definitions.some(
        (definition) =>
          definition.kind === Kind.OBJECT_TYPE_DEFINITION &&
          definition.name.value === 'query_root' &&
          definition.fields?.some((field) => field.name.value === 'portal_users_by_pk'),
      );
    expect(hasUsers(user)).toBe(true);
    expect(hasUsers(anonymous)).toBe(false);
    await expect(
      generateTypedDocuments(schemas, {
        anonymous: ['query Leak { portal_users_by_pk(id: "x") { email } }'],
      }),
    ).rejects.toThrow(/portal_users_by_pk/);
  });
});
