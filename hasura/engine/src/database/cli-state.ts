import type pg from 'pg';

/*
 * The two places a Hasura deployment records which migrations of hasura/migrations are applied,
 * read and written together (decision 021):
 *
 *  - the config v2 ledger, hdb_catalog.schema_migrations (version bigint, dirty boolean), which
 *    `npm run db:migrate` has always kept;
 *  - the config v3 ledger, the "CLI catalog state": the jsonb column cli_state of the one row of
 *    hdb_catalog.hdb_version, which the official image (hasura/graphql-engine:*.cli-migrations-v3,
 *    whose entrypoint runs `hasura-cli migrate apply --all-databases`) reads and writes.
 *
 * Read in hasura/graphql-engine (stored snapshot; commits are those of the files read):
 *  - cli/internal/statestore/statestore.go (03edeb4a): CLIState is
 *      { "migrations": { <database name>: { "<version as %d>": <dirty bool> } },
 *        "settings": { <name>: <string> }, "isStateCopyCompleted": <bool> }
 *    and only these keys are written back (Get decodes into the struct, Set encodes it);
 *  - cli/internal/statestore/migrations/catalogstate.go (104336c9): InsertVersion/SetVersion/
 *    RemoveVersion get the whole state, change the one version of the database, set it back;
 *  - cli/internal/statestore/settings/settings.go (b3f96606): the one setting, migration_mode,
 *    defaults to "true";
 *  - cli/migrate/util.go (604a7b49), copyStateToCatalogStateAPIIfRequired, run by `migrate apply`:
 *    while isStateCopyCompleted is false it copies hdb_catalog.schema_migrations into the
 *    catalog state (scripts.CopyState, cli/internal/scripts/update-project-v3.go,
 *    66b1ba08) and then sets
 *    it true, once; after that it never looks at schema_migrations again;
 *  - server/src-lib/Hasura/App.hs: get_catalog_state is
 *    `SELECT hasura_uuid::text, cli_state::json, console_state::json FROM hdb_catalog.hdb_version`,
 *    set_catalog_state {type: "cli"} is `UPDATE hdb_catalog.hdb_version SET cli_state = $1`;
 *  - server/src-rsr/initialise.sql (6800b344) and migrations/47_to_48.sql: hdb_version(hasura_uuid
 *    uuid pk, version text, upgraded_on timestamptz, cli_state jsonb NOT NULL DEFAULT '{}',
 *    console_state jsonb, ee_client_id, ee_client_secret), one row;
 *  - packaging/cli-migrations/v3/test/validation/catalog_cli_state.json (62c1d28c): what the
 *    image leaves after applying one migration: {"isStateCopyCompleted": true, "migrations":
 *    {"default": {"1616826329751": false}}, "settings": {"migration_mode": "true"}}.
 *
 * We never create hdb_version: the server (Hasura/Server/Migrate.hs, migrateCatalog) initialises
 * its whole metadata catalog only when that table is missing, and would take a lone one of ours
 * for an initialised catalog. Without it we keep the v2 ledger only, which the CLI copies on
 * its first run against the database.
 */

/** The database name our migrations belong to (hasura/migrations/default, config.yaml v3). */
export const CLI_DATABASE = 'default';

/** The settings the CLI fills in when missing (settings.go). */
const CLI_DEFAULT_SETTINGS: Record<string, string> = { migration_mode: 'true' };

export class MigrationLedgerError extends Error {
  override name = 'MigrationLedgerError';
}

/** The CLI's state as it reads it: only the keys CLIState has. */
export interface CliState {
  migrations: Record<string, Record<string, boolean>>;
  settings: Record<string, string>;
  isStateCopyCompleted: boolean;
}

export interface Ledgers {
  /** hdb_catalog.schema_migrations: version -> dirty; empty when the table is missing. */
  v2: Map<string, boolean>;
  /** The catalog state; undefined when hdb_catalog.hdb_version (or its row) is missing. */
  cli: CliState | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates cli_state as the CLI would decode it; refuses what it could not decode. */
export function parseCliState(value: unknown): CliState {
  const where = 'hdb_catalog.hdb_version.cli_state';
  if (!isRecord(value)) throw new MigrationLedgerError(`${where} is not a JSON object`);
  const migrations: CliState['migrations'] = {};
  const rawMigrations = value['migrations'] ?? {};
  if (!isRecord(rawMigrations))
    throw new MigrationLedgerError(`${where}.migrations is not an object`);
  for (const [database, versions] of Object.entries(rawMigrations)) {
    if (versions === null) continue;
    if (!isRecord(versions)) {
      throw new MigrationLedgerError(`${where}.migrations.${database} is not an object`);
    }
    migrations[database] = {};
    for (const [version, dirty] of Object.entries(versions)) {
      // The CLI parses keys with strconv.ParseUint(version, 10, 64).
      if (!/^\d{1,20}$/.test(version) || typeof dirty !== 'boolean') {
        throw new MigrationLedgerError(
          `${where}.migrations.${database} has ${JSON.stringify(version)}: ` +
            `${JSON.stringify(dirty)}; expected "<digits>": true|false`,
        );
      }
      migrations[database][BigInt(version).toString()] = dirty;
    }
  }
  const settings: CliState['settings'] = {};
  const rawSettings = value['settings'] ?? {};
  if (!isRecord(rawSettings)) throw new MigrationLedgerError(`${where}.settings is not an object`);
  for (const [name, setting] of Object.entries(rawSettings)) {
    if (typeof setting !== 'string') {
      throw new MigrationLedgerError(`${where}.settings.${name} is not a string`);
    }
    settings[name] = setting;
  }
  const copied = value['isStateCopyCompleted'] ?? false;
  if (typeof copied !== 'boolean') {
    throw new MigrationLedgerError(`${where}.isStateCopyCompleted is not a boolean`);
  }
  return { migrations, settings, isStateCopyCompleted: copied };
}

async function tableExists(client: pg.ClientBase, name: string): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [name],
  );
  return rows[0]!.present;
}

/**
 * Reads both ledgers. `lock` takes the hdb_version row FOR UPDATE, so that a catalog state
 * written back later in the same transaction is not a lost update.
 */
export async function readLedgers(
  client: pg.ClientBase,
  options: { lock?: boolean } = {},
): Promise<Ledgers> {
  const v2 = new Map<string, boolean>();
  if (await tableExists(client, 'hdb_catalog.schema_migrations')) {
    const { rows } = await client.query<{ version: string; dirty: boolean }>(
      'SELECT version::text AS version, dirty FROM hdb_catalog.schema_migrations',
    );
    for (const row of rows) v2.set(row.version, row.dirty);
  }
  let cli: CliState | undefined;
  if (await tableExists(client, 'hdb_catalog.hdb_version')) {
    const { rows } = await client.query<{ cli_state: unknown }>(
      `SELECT cli_state FROM hdb_catalog.hdb_version${options.lock ? ' FOR UPDATE' : ''}`,
    );
    if (rows.length > 0) cli = parseCliState(rows[0]!.cli_state ?? {});
  }
  return { v2, cli };
}

export interface EffectiveLedger {
  /** Every applied version: recorded in either ledger. */
  applied: Set<string>;
  /** Whether the two ledgers already say the same (else `writeLedgers` brings them in line). */
  inSync: boolean;
}

/**
 * What is applied, refusing a state that is not clear: a version marked dirty in either
 * ledger, or one that schema_migrations records but the catalog state, which the CLI has
 * taken over (isStateCopyCompleted), does not (rolled back with the CLI, or applied by a tool
 * that wrote only the v2 ledger: only a person can tell which). A version only in the catalog
 * state was applied by the image and counts as applied.
 */
export function effectiveLedger(ledgers: Ledgers): EffectiveLedger {
  const cliVersions = new Map(Object.entries(ledgers.cli?.migrations[CLI_DATABASE] ?? {}));
  const dirty = [
    ...[...ledgers.v2].filter(([, isDirty]) => isDirty).map(([v]) => `${v} (schema_migrations)`),
    ...[...cliVersions]
      .filter(([, isDirty]) => isDirty)
      .map(([v]) => `${v} (hdb_version.cli_state)`),
  ];
  if (dirty.length > 0) {
    throw new MigrationLedgerError(
      `migration ${dirty.join(', ')} is marked dirty: it failed half-way; fix the database by ` +
        'hand, then clear the flag in the ledger named',
    );
  }
  if (ledgers.cli?.isStateCopyCompleted) {
    const onlyV2 = [...ledgers.v2.keys()].filter((version) => !cliVersions.has(version));
    if (onlyV2.length > 0) {
      throw new MigrationLedgerError(
        `migration ${onlyV2.join(', ')} is applied according to hdb_catalog.schema_migrations ` +
          `but not according to the Hasura CLI's state (hdb_catalog.hdb_version.cli_state, ` +
          `database "${CLI_DATABASE}"), which the CLI has taken over: if it was rolled back with ` +
          'the Hasura CLI, delete it from schema_migrations; if its schema is there, add it to ' +
          'cli_state.migrations.default as false (e.g. `hasura migrate apply --skip-execution ' +
          '--version <v> --database-name default`)',
      );
    }
  }
  const applied = new Set([...ledgers.v2.keys(), ...cliVersions.keys()]);
  const inSync =
    ledgers.v2.size === applied.size &&
    (ledgers.cli === undefined ||
      (cliVersions.size === applied.size && ledgers.cli.isStateCopyCompleted));
  return { applied, inSync };
}

/**
 * The catalog state as the CLI would leave it once it has copied the v2 ledger and recorded
 * exactly `applied` for the default database: other databases' migrations kept, settings
 * defaulted, isStateCopyCompleted set (scripts.CopyState ends so).
 */
export function cliStateWith(state: CliState, applied: Iterable<string>): CliState {
  const versions: Record<string, boolean> = {};
  for (const version of [...applied].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))) {
    versions[version] = false;
  }
  return {
    migrations: { ...state.migrations, [CLI_DATABASE]: versions },
    settings: { ...CLI_DEFAULT_SETTINGS, ...state.settings },
    isStateCopyCompleted: true,
  };
}

/**
 * Records `applied` as the applied set in both ledgers (the v2 table must exist; the catalog
 * state only if `ledgers.cli` is there). Runs in the caller's transaction.
 */
export async function writeLedgers(
  client: pg.ClientBase,
  ledgers: Ledgers,
  applied: Set<string>,
): Promise<void> {
  const versions = [...applied];
  await client.query(
    'DELETE FROM hdb_catalog.schema_migrations WHERE NOT (version::text = ANY($1::text[]))',
    [versions],
  );
  await client.query(
    `INSERT INTO hdb_catalog.schema_migrations (version, dirty)
       SELECT v::bigint, false FROM unnest($1::text[]) AS v
     ON CONFLICT (version) DO NOTHING`,
    [versions],
  );
  if (ledgers.cli) {
    await client.query('UPDATE hdb_catalog.hdb_version SET cli_state = $1::jsonb', [
      JSON.stringify(cliStateWith(ledgers.cli, applied)),
    ]);
  }
}
