/*
 * Restore of a db:backup file into the database at DATABASE_URL:
 *   restore [--force] FILE     npm run db:restore -- [--force] FILE
 * Refuses a database that already has the product's tables or data unless --force, which drops
 * the schemas public, auth, bot and hdb_catalog first. Runs in one transaction: on any error the
 * database is left as it was. Exit code 0 when restored, 1 on an error or a refusal, 2 on bad
 * usage. Stop the services first and start them again after. See scripts/database/backup.ts.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import * as z from 'zod';

import { loadEnv } from '@app/shared/env';

import { createPool } from '@app/engine/database';

import { restoreDatabase } from '../restore.ts';

const USAGE = 'usage: npm run db:restore -- [--force] FILE';
const print = (line: string) => process.stdout.write(`${line}\n`);

let file: string;
let force: boolean;
try {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    print(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) throw new Error('name one backup file');
  // npm runs scripts in the repository root; the path is meant from where npm was typed.
  file = path.resolve(process.env['INIT_CWD'] ?? process.cwd(), positionals[0]!);
  force = values.force === true;
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const env = loadEnv(
  z.object({
    DATABASE_URL: z.string({ error: 'set DATABASE_URL, e.g. the URL npm start prints' }).min(1),
  }),
);

/** The URL without its password, to say where the restore went. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

const pool = createPool(env.DATABASE_URL, 1);
try {
  const result = await restoreDatabase(pool, file, { force });
  const width = Math.max(0, ...result.tables.map((t) => `${t.schema}.${t.name}`.length));
  print(`restored ${result.file} (made ${result.createdAt}) into ${where(env.DATABASE_URL)}`);
  if (result.replaced)
    print('the schemas public, auth, bot and hdb_catalog were replaced (--force)');
  print(
    `applied ${result.migrations.length} migrations` +
      (result.migrations.length ? `, up to ${result.migrations.at(-1)}` : ''),
  );
  const byName = [...result.tables].sort((a, b) =>
    `${a.schema}.${a.name}`.localeCompare(`${b.schema}.${b.name}`),
  );
  for (const table of byName) {
    print(`  ${`${table.schema}.${table.name}`.padEnd(width)}  ${String(table.rows).padStart(8)}`);
  }
  print(
    `${result.tables.length} tables, ${result.rows} rows; triggers held off with ` +
      (result.triggerMode === 'replica'
        ? 'session_replication_role = replica'
        : 'ALTER TABLE ... DISABLE TRIGGER'),
  );
  for (const table of result.skipped) print(`skipped ${table} (not part of this engine's catalog)`);
  for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
  print(
    'restart the services now: the engine reinstalls its event triggers when it starts, ' +
      'and npm start applies any newer migrations and the seeds',
  );
} catch (error) {
  process.stderr.write(
    `restore failed: ${error instanceof Error ? error.message : String(error)}\n` +
      'the database was not changed\n',
  );
  process.exitCode = 1;
} finally {
  await pool.end();
}
