import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { signHs256, userClaims } from '../../support/jwt.ts';
import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

import { startHostileStack, type HostileStack } from './engine-stack.ts';
import { graphqlShot } from './graphql-shots.ts';
import { changedTables, snapshotTables, type Snapshot } from './snapshot.ts';
import { Tally } from './tally.ts';
import { wsSession, runWsSession, WsTally } from './ws-sessions.ts';

/*
 * Hostile GraphQL (issue 11): generated requests against the real engine serving the product
 * metadata, with the actions service behind it, as anonymous, user, manager and administrator.
 * Every kind of garbage (graphql-shots.ts) over HTTP, then the WebSocket protocols
 * (ws-sessions.ts). The product must answer each with a clear error (or data), never a 5xx,
 * an `unexpected` code, a reset connection or a hang; the engine must still answer /healthz;
 * and no product table may change (snapshot.ts: row counts and checksums).
 *
 * HOSTILE_SEED=<n> replays a run (the seed is printed on failure and in the figures).
 */

const SEED = Number(process.env['HOSTILE_SEED'] ?? Date.now() % 2_147_483_647);
/** Requests per database target. */
const REQUESTS = Number(
  process.env['HOSTILE_REQUESTS'] ?? byProfile({ short: 10_000, full: 40_000 }),
);
const SESSIONS = Number(process.env['HOSTILE_SESSIONS'] ?? byProfile({ short: 150, full: 600 }));
/** Requests in flight at once. */
const PARALLEL = 8;

describe.each(databaseTargets)('hostile GraphQL on $name', (target) => {
  let hostile: HostileStack;
  const http = new Tally();
  const ws = new WsTally();
  const writes: Record<string, unknown> = {};
  const healthyAfter = { http: false, ws: false };

  beforeAll(async () => {
    hostile = await startHostileStack(target);
  });

  afterAll(async () => {
    // Measured here too when a test stopped early: the figure must say whether the engine lived.
    if (hostile && !healthyAfter.ws) healthyAfter.ws = await hostile.healthy();
    if (hostile && !healthyAfter.http) healthyAfter.http = healthyAfter.ws;
    recordFigures({
      check: `hostile-graphql:${target.name}`,
      figures: { fuzz_5xx: http.failures + (healthyAfter.http ? 0 : 1) },
      details: {
        seed: SEED,
        ...http.summary(),
        healthyAfter: healthyAfter.http,
        writes: writes['http'],
      },
    });
    recordFigures({
      check: `hostile-websocket:${target.name}`,
      figures: { fuzz_5xx: ws.failures + (healthyAfter.ws ? 0 : 1) },
      details: { seed: SEED, ...ws.summary(), healthyAfter: healthyAfter.ws, writes: writes['ws'] },
    });
    await hostile?.close();
  });

  it(`answers ${REQUESTS} hostile HTTP requests with clear errors and writes nothing`, async () => {
    const before: Snapshot = await snapshotTables(hostile.db.pool);
    const shot = graphqlShot(hostile.context, { sign: signHs256, claims: userClaims });
    await fc.assert(
      fc.asyncProperty(
        fc.array(shot, { minLength: PARALLEL, maxLength: PARALLEL }),
        async (shots) => {
          const failures = http.failures;
          await Promise.all(shots.map((item) => hostile.send(item, http)));
          if (http.failures > failures)
            throw new Error(`the product failed:\n${http.examples.slice(-3).join('\n')}`);
        },
      ),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / PARALLEL), endOnFailure: true },
    );
    healthyAfter.http = await hostile.healthy();
    const changed = changedTables(before, await snapshotTables(hostile.db.pool));
    writes['http'] = changed;
    expect(http.failures, http.examples.join('\n')).toBe(0);
    expect(healthyAfter.http, '/healthz after the run').toBe(true);
    expect(changed, 'tables written by hostile requests').toEqual({});
    expect(http.requests).toBeGreaterThanOrEqual(REQUESTS);
  });

  it(`survives ${SESSIONS} hostile WebSocket sessions and writes nothing`, async () => {
    const before: Snapshot = await snapshotTables(hostile.db.pool);
    const session = wsSession(hostile.context);
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 3, maxLength: 3 }), async (sessions) => {
        const failures = ws.failures;
        await Promise.all(
          sessions.map((item) =>
            runWsSession(hostile.stack.engineUrl, item, (role) => hostile.credentials(role), ws),
          ),
        );
        if (ws.failures > failures)
          throw new Error(`the product failed:\n${ws.examples.slice(-3).join('\n')}`);
      }),
      { seed: SEED, numRuns: Math.ceil(SESSIONS / 3), endOnFailure: true },
    );
    healthyAfter.ws = await hostile.healthy();
    const changed = changedTables(before, await snapshotTables(hostile.db.pool));
    writes['ws'] = changed;
    expect(ws.failures, ws.examples.join('\n')).toBe(0);
    expect(healthyAfter.ws, '/healthz after the run').toBe(true);
    expect(changed, 'tables written by hostile messages').toEqual({});
  });
});
