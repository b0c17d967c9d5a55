import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The GraphQL roles the clients talk as, and where each one's documents live. An operation
 * sits under the least-privileged role that must be able to run it, and is validated against the
 * schema the engine serves to that role: a page cannot ship a query its users are not allowed.
 */

export const GRAPHQL_ROLES = ['anonymous', 'user', 'manager', 'administrator'] as const;
export type GraphqlRole = (typeof GRAPHQL_ROLES)[number];

export const GRAPHQL_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'client',
  'src',
  'graphql',
);

/** The SDL the engine serves to `role`, committed so reviews show API changes. */
export const schemaFile = (role: GraphqlRole): string =>
  path.join(GRAPHQL_DIR, 'schema', `${role}.graphql`);

/** The `.graphql` operations run as `role`. */
export const operationsDir = (role: GraphqlRole): string =>
  path.join(GRAPHQL_DIR, 'operations', role);

/** The typed documents generated from `role`'s operations. */
export const generatedFile = (role: GraphqlRole): string =>
  path.join(GRAPHQL_DIR, 'generated', `${role}.ts`);
