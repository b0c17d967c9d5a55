/*
 * Database commands against DATABASE_URL (a real server or the launcher's embedded one):
 *   up                  apply pending migrations   (npm run db:migrate)
 *   down [N | --all]    roll back the newest N     (npm run db:rollback)
 *   status              list migrations            (npm run db:status)
 *   seed                apply the seeds            (npm run db:seed)
 */
import * as z from 'zod';

import { loadEnv } from '@app/shared/env';

import {
  applySeeds,
  createPool,
  DEFAULT_MIGRATIONS_DIR,
  DEFAULT_SEEDS_DIR,
  migrateDown,
  migrateUp,
  migrationStatus,
} from '../database/index.ts';

const env = loadEnv(
  z.object({
    DATABASE_URL: z.string({ error: 'set DATABASE_URL, e.g. the URL npm start prints' }).min(1),
  }),
);

const [command, argument] = process.argv.slice(2);
const pool = createPool(env.DATABASE_URL, 2);
const print = (line: string) => process.stdout.write(`${line}\n`);

try {
  switch (command) {
    case 'up': {
      const applied = await migrateUp(pool, DEFAULT_MIGRATIONS_DIR);
      print(
        applied.length
          ? applied.map((m) => `applied ${m.version}_${m.name}`).join('\n')
          : 'nothing to apply',
      );
      break;
    }
    case 'down': {
      const options = argument === '--all' ? { all: true } : { steps: Number(argument ?? 1) };
      if (!options.all && !(Number.isInteger(options.steps) && (options.steps ?? 0) > 0)) {
        throw new Error('usage: down [N | --all]');
      }
      const undone = await migrateDown(pool, DEFAULT_MIGRATIONS_DIR, options);
      print(
        undone.length
          ? undone.map((m) => `rolled back ${m.version}_${m.name}`).join('\n')
          : 'nothing to roll back',
      );
      break;
    }
    case 'status':
      for (const m of await migrationStatus(pool, DEFAULT_MIGRATIONS_DIR)) {
        const state = m.applied ? 'applied' : 'pending';
        print(`${m.version}  ${state.padEnd(8)} ${m.name ?? '(not on disk)'}`);
      }
      break;
    case 'seed':
      print((await applySeeds(pool, DEFAULT_SEEDS_DIR)).map((file) => `seeded ${file}`).join('\n'));
      break;
    default:
      throw new Error('usage: db.ts up | down [N | --all] | status | seed');
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await pool.end();
}
