/*
 * Backup of the database at DATABASE_URL (a server, or the URL npm start prints):
 *   backup [--out FILE]     npm run db:backup [-- --out FILE]
 * Writes .data/backups/backup-<UTC timestamp>.jsonl.gz unless --out names a file; prints the
 * path and each table's row count. Exit code 0 when written, 1 on an error, 2 on bad usage.
 * See scripts/database/backup.ts for the format.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import * as z from 'zod';

import { loadEnv } from '@app/shared/env';

import { createPool } from '@app/engine/database';

import { backupDatabase } from '../backup.ts';

const USAGE = 'usage: npm run db:backup [-- --out FILE]';
const print = (line: string) => process.stdout.write(`${line}\n`);

const invokedFrom = process.env['INIT_CWD'] ?? process.cwd();
let out: string | undefined;
try {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  });
  if (values.help) {
    print(USAGE);
    process.exit(0);
  }
  // npm runs scripts in the repository root; a path given is meant from where npm was typed.
  out = values.out === undefined ? undefined : path.resolve(invokedFrom, values.out);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const env = loadEnv(
  z.object({
    DATABASE_URL: z.string({ error: 'set DATABASE_URL, e.g. the URL npm start prints' }).min(1),
  }),
);

const pool = createPool(env.DATABASE_URL, 1);
try {
  const result = await backupDatabase(pool, out === undefined ? {} : { out });
  const width = Math.max(0, ...result.tables.map((t) => `${t.schema}.${t.name}`.length));
  print(`backup written to ${result.file}`);
  const byName = [...result.tables].sort((a, b) =>
    `${a.schema}.${a.name}`.localeCompare(`${b.schema}.${b.name}`),
  );
  for (const table of byName) {
    print(`  ${`${table.schema}.${table.name}`.padEnd(width)}  ${String(table.rows).padStart(8)}`);
  }
  print(
    `${result.tables.length} tables, ${result.rows} rows, ${result.bytes} bytes; ` +
      `migrations: ${result.migrations.length ? `${result.migrations.length}, up to ${result.migrations.at(-1)}` : 'none'}`,
  );
  if (result.dirtyMigrations.length > 0) {
    process.stderr.write(
      `warning: migration ${result.dirtyMigrations.join(', ')} is marked dirty; ` +
        'db:restore will refuse this backup until the database is fixed and backed up again\n',
    );
  }
} catch (error) {
  process.stderr.write(
    `backup failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await pool.end();
}
