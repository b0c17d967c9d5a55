import { fileURLToPath } from 'node:url';

/** The Hasura project folder (`hasura/`): config.yaml, migrations, metadata, seeds. */
export const HASURA_PROJECT_DIR = fileURLToPath(new URL('../../../', import.meta.url));

/** Migrations and seeds of the one database source, `default`, as the Hasura CLI lays them out. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(
  new URL('../../../migrations/default/', import.meta.url),
);
export const DEFAULT_SEEDS_DIR = fileURLToPath(new URL('../../../seeds/default/', import.meta.url));
