/*
 * `npm run db:provision`: migrations, seeds and the admin account on the PostgreSQL server
 * at DATABASE_URL. Production runs it once per deploy (docker-compose's `provision`
 * service); it is idempotent, so running it again changes nothing. Migrations the official
 * engine image applied at boot (recorded in hdb_catalog.hdb_version.cli_state) count as applied,
 * and those applied here are recorded there too (decision 021).
 */
import * as z from 'zod';

import { loadEnv } from '@app/shared/env';

import { provisionDatabase } from './launcher/database.ts';
import { LauncherEnv, runsTelegramSandbox } from './launcher/env.ts';

const env = loadEnv(LauncherEnv.extend({ DATABASE_URL: z.string().min(1) }));
const result = await provisionDatabase(
  env.DATABASE_URL,
  { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
  { sandbox: runsTelegramSandbox(env) },
);
const removed = result.sandboxAccountsRemoved;
process.stdout.write(
  `${result.appliedMigrations.length ? `applied ${result.appliedMigrations.join(', ')}` : 'migrations up to date'}; ` +
    `seeds applied; admin ${env.ADMIN_EMAIL} ${result.adminCreated ? 'created' : 'already present'}` +
    (removed && removed.deleted + removed.disabled > 0
      ? `; Telegram sandbox accounts removed (${removed.deleted} deleted, ${removed.disabled} unlinked and disabled)`
      : '') +
    '\n',
);
