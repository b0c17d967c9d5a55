/*
 * What the engine's row-ownership suites share: two users, the usual
 * `owner = X-Hasura-User-Id` permission filter, and metadata with one PostgreSQL source.
 */

export const ALICE = '11111111-1111-4111-8111-111111111111';
export const BOB = '22222222-2222-4222-8222-222222222222';
export const OWN = { owner: { _eq: 'X-Hasura-User-Id' } };

/** Metadata (version 3) whose `default` PostgreSQL source tracks `tables`. */
export const sourceMetadata = (tables: unknown[]) => ({
  version: 3,
  sources: [{ name: 'default', kind: 'postgres', tables }],
});
