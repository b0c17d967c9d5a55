/*
 * `npm start`: the whole product on one machine, as users get it. It builds the portal and the
 * mini-app for production when their builds are missing or stale (launcher/builds.ts). With no
 * DATABASE_URL it runs embedded PostgreSQL (PGlite) on 127.0.0.1:54320, keeping data in
 * .data/pglite; `npm start -- --fresh` starts from an empty database. Then it applies migrations
 * and seeds, starts every service that exists in this checkout, waits for their health checks
 * and prints the URLs. `npm run dev` (`--dev`) is the same stack with the portal and the
 * mini-app rendered by Vite's development server instead (hot reload, no build).
 * Ctrl-C stops everything.
 */
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { DEV_SECRET_PREFIX, loadEnv } from '@app/shared/env';

import { ensureClientBuilds } from './launcher/builds.ts';
import { prepareDatabase } from './launcher/database.ts';
import { LauncherEnv } from './launcher/env.ts';
import { launcherAddressEnv } from './launcher/addresses.ts';
import { availableServices } from './launcher/services.ts';
import {
  describeExit,
  describeTail,
  startService,
  stopServices,
  SupervisorEnv,
  waitHealthy,
  type RunningService,
} from './launcher/supervisor.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A database URL fit to print: its password masked (and nothing of one it cannot parse). */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL, not shown)';
  }
}
const say = (line: string) => process.stdout.write(`[launcher] ${line}\n`);

const env = loadEnv(LauncherEnv);
const { LAUNCHER_START_TIMEOUT_SECONDS } = loadEnv(SupervisorEnv);
/** The auth service's outbox when SMTP_URL is unset (its default; the actions service's too). */
const outboxDir = path.resolve(root, env.AUTH_OUTBOX_DIR);
const fresh = process.argv.includes('--fresh');
const webServe = process.argv.includes('--dev') ? 'dev' : (env.WEB_SERVE ?? 'build');

if (webServe === 'build') {
  await ensureClientBuilds(root, process.env, say).then(
    (outcomes) => {
      if (outcomes.every((outcome) => !outcome.built)) say('production builds up to date');
    },
    (error: unknown) => {
      say(`could not build: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
} else {
  say('development rendering (Vite, hot reload): no production builds');
}

const database = await prepareDatabase(env, { fresh }).catch((error: unknown) => {
  say(`could not prepare the database: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
say(
  database.embedded
    ? `embedded PostgreSQL (PGlite) in ${env.EMBEDDED_DB_DIR}`
    : 'PostgreSQL from DATABASE_URL',
);
say(
  database.appliedMigrations.length
    ? `applied migrations: ${database.appliedMigrations.join(', ')}`
    : 'migrations up to date',
);
say(
  `seeds applied; admin ${env.ADMIN_EMAIL} ${database.adminCreated ? 'created' : 'already present'}`,
);
const removed = database.sandboxAccountsRemoved;
if (removed && removed.deleted + removed.disabled > 0) {
  say(
    `no Telegram sandbox: its accounts removed (${removed.deleted} deleted, ${removed.disabled} kept for their orders, unlinked and disabled)`,
  );
}

const services: RunningService[] = [];
/** Services that have answered their health check; until then waitHealthy reports an exit. */
const healthy = new Set<RunningService>();
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('stopping');
    await stopServices(services);
    await database.embedded?.stop();
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

const serviceEnv = {
  ...process.env,
  NODE_ENV: env.NODE_ENV,
  WEB_SERVE: webServe,
  DATABASE_URL: database.url,
  // Every address (where the browser reaches each service, where the services reach each
  // other, the auth service's allowed origins, links in mail and the bot's buttons) is derived
  // from the port variables unless set explicitly (launcher/addresses.ts, decision 022).
  ...launcherAddressEnv(process.env),
  // Shared by the engine (which sends them) and the actions service and bot (which check them).
  ACTIONS_SECRET: env.ACTIONS_SECRET,
  BOT_EVENTS_SECRET: env.BOT_EVENTS_SECRET,
};
availableServices(root).forEach((definition, index) => {
  const service = startService(root, definition, index, serviceEnv);
  services.push(service);
  service.child.once('exit', () => {
    if (stopping || !healthy.has(service)) return;
    // Its last lines, which say why it stopped, may still be in the pipe.
    void Promise.race([service.closed, delay(2_000)]).then(() => {
      say(
        `${definition.name} stopped unexpectedly (${describeExit(service.child)}); stopping the stack. ${describeTail(service)}`,
      );
      return shutdown(1);
    });
  });
});

try {
  const quietMs = LAUNCHER_START_TIMEOUT_SECONDS * 1000;
  await Promise.all(
    services.map((service) => waitHealthy(service, quietMs).then(() => healthy.add(service))),
  );
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  await shutdown(1);
}

const lines = [
  // The embedded database's fixed local credentials are printed for clients to copy; a given
  // DATABASE_URL's password is a secret, and logs are no place for it.
  `Database     ${database.embedded ? database.url : withoutPassword(database.url)}`,
  ...services.flatMap((service) => service.definition.urls(service.port)),
  // Only the development default is printed: a password someone chose is theirs to know.
  `Admin        ${env.ADMIN_EMAIL}  ${
    env.ADMIN_PASSWORD.startsWith(DEV_SECRET_PREFIX)
      ? `password ${env.ADMIN_PASSWORD} (development only)`
      : '(the ADMIN_PASSWORD you set)'
  }`,
  env.SMTP_URL
    ? `Mail         sent through ${withoutPassword(env.SMTP_URL)}`
    : `Mail         written as .eml files to ${path.relative(process.cwd(), outboxDir) || '.'}/ (no SMTP_URL)`,
];
say(`ready\n\n  ${lines.join('\n  ')}\n\n  Ctrl-C stops everything.\n`);
