import { fileURLToPath } from 'node:url';

import { createEngine, loadMetadata } from '@app/engine';

import { TEST_ADMIN_SECRET } from '../../support/engine.ts';
import { DEV_JWT_SECRET } from '../../support/jwt.ts';
import { announceReady, countStatements, requireEnv, serveIpc } from '../servers/child.ts';

import { startCpuProfile } from './profile.ts';

/*
 * The engine of `npm run bench:orders`, in a process of its own as in production: createEngine
 * as tests/integration/actions/harness.ts starts it (the product metadata in hasura/metadata,
 * HS256 JWT with the development key, the admin secret, `anonymous` for visitors), calling
 * the actions service at BENCH_ACTIONS_URL with its shared secret. Event triggers run as the
 * metadata defines them; the bot's go to BENCH_BOT_EVENTS_URL (a sink in the orchestrator).
 */

const METADATA_DIR = fileURLToPath(new URL('../../../hasura/metadata/', import.meta.url));

countStatements();
const stopProfile = await startCpuProfile();
const metadata = await loadMetadata({ directory: METADATA_DIR });
if (process.env['BENCH_WITHOUT_EVENT_TRIGGERS'] === '1') {
  // Diagnostic (--without-event-triggers): the engine then drops the tables' event triggers,
  // so inserts write no events and nothing is delivered.
  for (const table of metadata.sources[0]?.tables ?? []) table.event_triggers = [];
  metadata.cron_triggers = [];
}
const engine = await createEngine({
  databaseUrl: requireEnv('BENCH_DATABASE_URL'),
  metadata: { object: metadata },
  adminSecret: TEST_ADMIN_SECRET,
  jwtSecret: DEV_JWT_SECRET,
  unauthorizedRole: 'anonymous',
  poolSize: 4,
  environment: {
    ACTIONS_BASE_URL: requireEnv('BENCH_ACTIONS_URL'),
    ACTIONS_SECRET: requireEnv('BENCH_ACTIONS_SECRET'),
    // The bot's event triggers (order created, status changed) go to the orchestrator's sink.
    BOT_EVENTS_URL: requireEnv('BENCH_BOT_EVENTS_URL'),
    BOT_EVENTS_SECRET: 'bench-bot-events-secret-0123456789',
  },
});
const { url } = await engine.listen(0, '127.0.0.1');
serveIpc({}, async () => {
  await engine.close();
  await stopProfile();
});
announceReady(`${url}/v1/graphql`);
