import { connect } from 'node:net';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createUser,
  migratedDatabase,
  PASSWORD,
  startAuth,
  startMailbox,
  type AuthServer,
  type Mailbox,
} from '../../integration/auth/harness.ts';
import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

import { EXISTING_EMAIL } from './auth-shot-bodies.ts';
import { authShot, type AuthShot } from './auth-shots.ts';
import { changedTables, snapshotTables, type Snapshot } from './snapshot.ts';
import { HEADERS_TOO_LARGE, sendCounted, Tally, type Verdict } from './tally.ts';

/*
 * Hostile input on every auth endpoint (issue 11), beyond tests/integration/auth/fuzz.test.ts
 * (which sends malformed bodies from a fixed seed): bodies shaped as each endpoint expects,
 * with values of the right type that are hostile (e-mails that almost pass, unicode look-alikes,
 * header injection, overlong and NUL-laden passwords, tokens of the right alphabet that match
 * nothing, codes that never were), missing and extra fields, sizes around the body limit,
 * and header abuse (credentials, languages, origins, forwarded addresses, cookies, framing).
 *
 * Every answer must be a 4xx with `{ code, message }` (Node's own 400/431 for framing it
 * refuses before the service sees it), and no account, role, token, code or reset link may be
 * created or changed: every product table is compared before and after, except
 * auth.rate_limits, the attempt counters that well-formed attempts legitimately advance (they
 * are reported). No mail may be sent.
 *
 * HOSTILE_SEED=<n> replays a run (the seed is printed on failure and in the figures).
 */

const SEED = Number(process.env['HOSTILE_SEED'] ?? Date.now() % 2_147_483_647);
const REQUESTS = Number(
  process.env['HOSTILE_AUTH_REQUESTS'] ?? byProfile({ short: 3_000, full: 15_000 }),
);
const PARALLEL = 6;
/** Written by well-formed attempts, by design: excluded from "nothing written", reported. */
const ATTEMPT_COUNTERS = 'auth.rate_limits';
/** Code challenges: a known address at /register or /quick-auth gets one (decision 016). */
const CHALLENGES = 'auth.login_codes';

/** A raw request's status line (or 'closed' when the server closed without answering). */
function sendRaw(url: string, raw: string): Promise<{ status: number | 'closed'; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(raw));
    let received = '';
    socket.setTimeout(15_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({ status: match ? Number(match[1]) : 'closed', text: received });
    });
  });
}

describe.each(databaseTargets)('hostile input on the auth endpoints, on $name', (target) => {
  let db: TestDatabase;
  let mailbox: Mailbox;
  let server: AuthServer;
  const tally = new Tally();
  let attemptCounters: unknown;
  let writes: unknown;
  let mails = 0;
  let healthy = false;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    mailbox = await startMailbox();
    server = await startAuth(db, mailbox);
    await createUser(db, { email: EXISTING_EMAIL, password: PASSWORD, is2fa: true });
  });
  afterAll(async () => {
    if (server)
      healthy ||=
        (await server.request('/healthz', { method: 'GET' }).catch(() => ({ status: 0 })))
          .status === 200;
    recordFigures({
      check: `hostile-auth:${target.name}`,
      figures: { fuzz_5xx: tally.failures + (healthy ? 0 : 1) },
      details: {
        seed: SEED,
        ...tally.summary(),
        healthyAfter: healthy,
        writes,
        attemptCounters,
        mails,
      },
    });
    await server?.close();
    await mailbox?.close();
    await db?.dispose();
  });

  async function send(shot: AuthShot): Promise<Verdict> {
    if (shot.raw !== undefined) {
      const { status, text } = await sendRaw(server.url, shot.raw);
      // Node's parser refuses bad framing with a bare 400/431 (or by closing): clear enough.
      const verdict: Verdict =
        status === 'closed' ? 'refused' : status >= 500 ? '5xx' : status >= 400 ? 'refused' : 'ok';
      return tally.count(
        shot.kind,
        verdict,
        status,
        [],
        `${text.slice(0, 200)} ← ${fc.stringify(shot)}`,
      );
    }
    const answer = await sendCounted(
      tally,
      shot.kind,
      {
        url: `${server.url}${shot.path}`,
        method: shot.method,
        headers: shot.headers,
        body: shot.body,
      },
      fc.stringify(shot),
      30_000,
    );
    if (typeof answer === 'string') return answer;
    const { status, text } = answer;
    const detail = `${text.slice(0, 300)} ← ${fc.stringify(shot)}`;
    if (status >= 500) return tally.count(shot.kind, '5xx', status, [], detail);
    if (status < 400) {
      // Only answers that create nothing may succeed: the constant { ok: true } of
      // /reset_password and /logout (an unknown account or token changes nothing, and the
      // answer does not tell), CORS preflights and GET of /healthz.
      // A known address at /register or /quick-auth gets a code challenge (decision 016): a
      // ticket, no session and no account; the code goes to the address's own owner.
      const harmless =
        (['/reset_password', '/logout'].includes(shot.path) && text === '{"ok":true}') ||
        (['/register', '/quick-auth'].includes(shot.path) &&
          /^\{"is2fa":true,"token":"[\w-]+"\}$/.test(text)) ||
        shot.method === 'OPTIONS' ||
        shot.path.startsWith('/healthz');
      return tally.count(
        shot.kind,
        harmless ? 'ok' : 'unclear',
        status,
        [],
        `succeeded: ${detail}`,
      );
    }
    if (shot.method === 'HEAD' || status === HEADERS_TOO_LARGE)
      return tally.count(shot.kind, 'refused', status, [], detail);
    let parsed: { code?: unknown; message?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return tally.count(shot.kind, 'unclear', status, [], detail);
    }
    if (
      typeof parsed.code !== 'string' ||
      typeof parsed.message !== 'string' ||
      /at .+\.ts:\d+/.test(text)
    )
      return tally.count(shot.kind, 'unclear', status, [], detail);
    return tally.count(
      shot.kind,
      parsed.code === 'internal-error' ? 'unexpected' : 'refused',
      status,
      [parsed.code],
      detail,
    );
  }

  it(`answers ${REQUESTS} hostile requests with clear 4xx errors and creates nothing`, async () => {
    const before: Snapshot = await snapshotTables(db.pool);
    await fc.assert(
      fc.asyncProperty(
        fc.array(authShot, { minLength: PARALLEL, maxLength: PARALLEL }),
        async (shots) => {
          const failures = tally.failures;
          await Promise.all(shots.map(send));
          if (tally.failures > failures)
            throw new Error(`the service failed:\n${tally.examples.slice(-3).join('\n')}`);
        },
      ),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / PARALLEL), endOnFailure: true },
    );
    await server.auth.drain();
    healthy = (await server.request('/healthz', { method: 'GET' })).status === 200;
    const after = await snapshotTables(db.pool);
    writes = changedTables(before, after, new Set([ATTEMPT_COUNTERS, CHALLENGES]));
    // Challenges only ever for the existing account, mailed only to its owner.
    const challenged = await db.pool.query<{ email: string }>(
      `SELECT DISTINCT u.email FROM auth.login_codes c JOIN public.portal_users u ON u.id = c.user_id`,
    );
    expect(challenged.rows.map((row) => row.email)).toEqual(
      challenged.rows.length > 0 ? [EXISTING_EMAIL] : [],
    );
    attemptCounters = { before: before[ATTEMPT_COUNTERS], after: after[ATTEMPT_COUNTERS] };
    mails = mailbox.messages.length - mailbox.to(EXISTING_EMAIL).length;
    expect(tally.failures, tally.examples.join('\n')).toBe(0);
    expect(healthy, '/healthz after the run').toBe(true);
    expect(writes, 'rows written by hostile requests').toEqual({});
    expect(mails, 'mails sent for hostile requests to anyone but the account owner').toBe(0);
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    expect(tally.requests).toBeGreaterThanOrEqual(REQUESTS);
  });
});
