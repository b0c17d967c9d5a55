import { ensureAdminAccount } from '@app/auth-service/admin-account';
import { removeSandboxAccounts, type RemovedSandboxAccounts } from '@app/bot/sandbox/accounts';
import {
  applySeeds,
  createPool,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  migrateUp,
} from '@app/engine/database';
import {
  removeEmbeddedData,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '@app/engine/embedded-postgres';

import { runsTelegramSandbox, type LauncherEnv } from './env.ts';

export interface ProvisionedDatabase {
  appliedMigrations: string[];
  adminCreated: boolean;
  /** Without the Telegram sandbox: what became of its accounts (none left that can sign in). */
  sandboxAccountsRemoved: RemovedSandboxAccounts | undefined;
}

export interface PreparedDatabase extends ProvisionedDatabase {
  url: string;
  embedded: EmbeddedPostgres | undefined;
}

/**
 * Applies migrations, seeds and the admin account to a database and, when the stack runs
 * without the Telegram sandbox, removes the sandbox's accounts (bot/src/sandbox/accounts.ts).
 * Idempotent: the launcher runs it on every start, and production runs it once per deploy
 * (`npm run db:provision`).
 */
export async function provisionDatabase(
  url: string,
  admin: { email: string; password: string },
  /** Whether the stack runs the Telegram sandbox (runsTelegramSandbox); by default, not. */
  options: { sandbox: boolean } = { sandbox: false },
): Promise<ProvisionedDatabase> {
  const pool = createPool(url, 2);
  try {
    const applied = await migrateUp(pool, DEFAULT_MIGRATIONS_DIR);
    await applySeeds(pool, DEFAULT_SEEDS_DIR);
    const adminCreated = await ensureAdminAccount(pool, admin);
    const sandboxAccountsRemoved = options.sandbox ? undefined : await removeSandboxAccounts(pool);
    return {
      appliedMigrations: applied.map((m) => `${m.version}_${m.name}`),
      adminCreated,
      sandboxAccountsRemoved,
    };
  } finally {
    await pool.end();
  }
}

/**
 * Brings up the database the stack runs on: DATABASE_URL when given, else embedded PGlite
 * (kept in EMBEDDED_DB_DIR; `fresh` wipes it first), then provisions it.
 */
export async function prepareDatabase(
  env: LauncherEnv,
  options: { fresh: boolean },
): Promise<PreparedDatabase> {
  let embedded: EmbeddedPostgres | undefined;
  let url = env.DATABASE_URL;
  if (url === undefined) {
    if (options.fresh) await removeEmbeddedData(env.EMBEDDED_DB_DIR);
    embedded = await startEmbeddedPostgres({
      dataDir: env.EMBEDDED_DB_DIR,
      port: env.EMBEDDED_DB_PORT,
    });
    url = embedded.url;
  }
  try {
    const provisioned = await provisionDatabase(
      url,
      { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
      { sandbox: runsTelegramSandbox(env) },
    );
    return { url, embedded, ...provisioned };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
