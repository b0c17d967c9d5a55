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
import { DEV_JWT_KEY, signHs256, userClaims } from '../../support/jwt.ts';
import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

import { changedTables, snapshotTables, type Snapshot } from './snapshot.ts';
import { HEADERS_TOO_LARGE, sendCounted, Tally, type Verdict } from './tally.ts';
import { hostileString, nastyString, SQL_INJECTIONS } from './values.ts';

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
const EXISTING_EMAIL = 'hostile-auth@example.com';

interface AuthShot {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** Sent over a raw socket as is (malformed framing). */
  raw?: string;
}

function shortPrint(shot: AuthShot): AuthShot {
  Object.defineProperty(shot, fc.toStringMethod, {
    enumerable: false,
    value: () => {
      const body =
        shot.raw ??
        (typeof shot.body === 'string'
          ? shot.body
          : shot.body
            ? `<${shot.body.length} bytes>`
            : '');
      return `${shot.kind}: ${shot.method} ${shot.path} ${JSON.stringify(shot.headers).slice(0, 300)} ${JSON.stringify(body.length > 300 ? `${body.slice(0, 300)}… (${body.length})` : body)}`;
    },
  });
  return shot;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const ENDPOINTS = [
  '/login',
  '/login_with_2fa',
  '/quick-auth',
  '/register',
  '/refresh_tokens',
  '/reset_password',
  '/change-password',
  '/telegram-auth',
  '/logout',
  '/two-factor',
] as const;

/** E-mail addresses the validator refuses: nearly right, look-alikes, injections, overlong. */
const badEmail = fc.oneof(
  fc.constantFrom(
    'user@example',
    'user@@example.com',
    '@example.com',
    'user@',
    'user.@example.com',
    '.user@example.com',
    'us..er@example.com',
    'user@-example.com',
    'user@example..com',
    'user@example.c',
    'user@exam_ple.com',
    'user@example.com.',
    'user name@example.com',
    '"user"@example.com',
    'user@[127.0.0.1]',
    'user@localhost',
    'user＠example.com',
    'usеr@еxample.com',
    'user@exämple.com',
    'user@example.com\r\nBcc: victim@example.com',
    'user@example.com\nSubject: hi',
    'user@example.com\u0000',
    '\u202euser@example.com',
    'user\u200b@example.com',
    `${'a'.repeat(65)}@example.com`,
    `user@${'a'.repeat(64)}.com`,
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.com`,
    "user@example.com' OR '1'='1",
    'hostile-auth@example.com\u0000',
    'HOSTILE-AUTH@EXAMPLE.COM\u200b',
    'hostile-auth@exаmple.com',
  ),
  nastyString.filter((value) => !/^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/i.test(value.trim())),
  fc.constantFrom(...SQL_INJECTIONS),
);

/** Opaque tokens: the right alphabet and length that match nothing, or almost the right shape. */
const badToken = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{42}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{44}$/),
  fc.constantFrom(
    'A'.repeat(43),
    '-'.repeat(43),
    `${'A'.repeat(42)}=`,
    `${'A'.repeat(42)}\u0000`,
    `${'A'.repeat(42)}.`,
  ),
  hostileString(20_000),
);

const badCode = fc.oneof(
  fc.stringMatching(/^\d{6}$/),
  fc.constantFrom(
    '',
    '00000',
    '0000000',
    '１２３４５６',
    '12345a',
    ' 123456',
    '123456\n',
    '-12345',
    '1e5000',
    '٠١٢٣٤٥',
  ),
);

/** Passwords of every hostile kind (for bodies whose e-mail or token already makes them fail). */
const anyPassword = fc.oneof(
  hostileString(20_000),
  fc.constantFrom(
    '',
    'short',
    PASSWORD,
    'a'.repeat(1025),
    'Aa1!'.repeat(256),
    '\u0000'.repeat(20),
    'e\u0301'.repeat(10),
  ),
);

const locale = fc.oneof(
  fc.constantFrom(
    'en',
    'ru',
    'ua',
    'uk',
    'EN',
    'en-US',
    'zz',
    '../../etc/passwd',
    '__proto__',
    'x'.repeat(36),
  ),
  nastyString,
);

const referral = fc.oneof(fc.constantFrom('abc', 'ref_1', '__proto__', "' OR 1=1"), nastyString);

/** A value of the wrong type for any field. */
const wrongType = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

/** Bodies shaped as each endpoint expects, which never pass: one field always fails. */
function shapedBody(path: (typeof ENDPOINTS)[number]): fc.Arbitrary<Record<string, unknown>> {
  const extras = fc.dictionary(
    fc.oneof(
      fc.constantFrom('role', 'isAdmin', 'x-hasura-role', 'userId', 'email_verified', 'roles'),
      fc.string({ maxLength: 8 }),
    ),
    fc.oneof(wrongType, nastyString),
    { maxKeys: 3 },
  );
  const withOptional = <T extends Record<string, unknown>>(base: fc.Arbitrary<T>) =>
    fc.tuple(base, fc.option(locale, { nil: undefined }), extras).map(([body, lang, extra]) => ({
      ...extra,
      ...body,
      ...(lang === undefined ? {} : { locale: lang }),
    }));
  switch (path) {
    case '/login':
      return withOptional(
        fc.oneof(
          fc.record({ email: badEmail, password: anyPassword }),
          // Well-formed, wrong credentials: an unknown account, or the known one with a wrong password.
          fc.record({
            email: fc.constantFrom(
              'nobody@example.com',
              EXISTING_EMAIL,
              'Hostile-Auth@Example.com',
            ),
            password: fc.constantFrom('Wrong-password-42', `${PASSWORD} `, PASSWORD.toLowerCase()),
          }),
          fc.record({ email: wrongType, password: anyPassword }),
          fc.record({ password: anyPassword }),
        ),
      );
    case '/login_with_2fa':
      return withOptional(fc.record({ token: badToken, code: badCode }, { requiredKeys: [] }));
    case '/quick-auth':
      // Never a valid e-mail: a new one would (rightly) create an account.
      return withOptional(
        fc.record(
          { email: fc.oneof(badEmail, wrongType), referralCode: fc.oneof(referral, wrongType) },
          { requiredKeys: [] },
        ),
      );
    case '/register':
      return withOptional(
        fc.oneof(
          fc.record({
            email: badEmail,
            password: anyPassword,
            confirmPassword: anyPassword,
            referralCode: referral,
          }),
          // A valid new e-mail with a password the policy refuses (too short, one kind of
          // character, too long, the address itself or its local part), or that does not match.
          fc
            .tuple(
              fc.uuid().map((id) => `hostile-${id}@example.com`),
              fc.nat(5),
              fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
            )
            .map(([email, variant, confirmPassword]) => ({
              email,
              password: [
                'Short-1',
                'alllowercaseletters',
                '12345678901234',
                `Aa1-${'a'.repeat(126)}`,
                email,
                email.split('@')[0]!,
              ][variant]!,
              ...(confirmPassword === undefined ? {} : { confirmPassword }),
            })),
          fc.record({
            email: fc.uuid().map((id) => `hostile-${id}@example.com`),
            password: fc.constant('Valid-password-42'),
            confirmPassword: fc.constantFrom('Valid-password-43', '', 'valid-password-42'),
          }),
          fc.record({
            email: fc.constant(EXISTING_EMAIL),
            password: fc.constant('Valid-password-42'),
          }),
        ),
      );
    case '/refresh_tokens':
    case '/logout':
      return withOptional(
        fc.record({ refreshToken: fc.oneof(badToken, wrongType) }, { requiredKeys: [] }),
      );
    case '/reset_password':
      // A valid e-mail of an unknown account answers ok and writes nothing; the known one is valid input.
      return withOptional(
        fc.record({ email: fc.oneof(badEmail, wrongType, fc.constant('nobody-here@example.com')) }),
      );
    case '/change-password':
      return withOptional(
        fc.oneof(
          fc.record(
            { token: badToken, password: anyPassword, confirmPassword: anyPassword },
            { requiredKeys: ['token'] },
          ),
          fc.record({ password: anyPassword, currentPassword: anyPassword }),
        ),
      );
    case '/two-factor':
      // Signed-in only: without a session of a real account (the headers' tokens are forged,
      // expired or for no account) nothing changes, whatever the password or code.
      return withOptional(
        fc.record(
          {
            enabled: fc.oneof(fc.boolean(), wrongType),
            password: anyPassword,
            token: badToken,
            code: badCode,
          },
          { requiredKeys: [] },
        ),
      );
    case '/telegram-auth':
      return withOptional(
        fc.record(
          {
            initData: fc.oneof(
              hostileString(9_000),
              fc
                .tuple(fc.nat(), fc.stringMatching(/^[0-9a-f]{64}$/), nastyString)
                .map(([id, hash, name]) =>
                  new URLSearchParams({
                    user: JSON.stringify({ id, first_name: name }),
                    auth_date: String(Math.floor(Date.now() / 1000)),
                    hash,
                  }).toString(),
                ),
              fc.constantFrom(
                'user=%7B%7D&hash=',
                'auth_date=-1&hash=00',
                'hash=' + 'f'.repeat(64),
                '%%%%',
                'a=1&a=2&hash=x',
              ),
            ),
            referralCode: referral,
          },
          { requiredKeys: [] },
        ),
      );
  }
}

const accessToken = (id: string) => signHs256(userClaims(id, ['user']));

/** Header abuse: credentials, languages, origins, forwarded addresses, cookies, ids. */
const abusiveHeaders = fc.record(
  {
    authorization: fc.oneof(
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer x.y.z',
        `Bearer ${'A'.repeat(8000)}`,
      ),
      fc
        .uuid()
        .map(
          (id) =>
            `Bearer ${signHs256(userClaims(id, ['user']), 'wrong-key-wrong-key-wrong-key-0123')}`,
        ),
      fc.uuid().map((id) => `Bearer ${signHs256(userClaims(id, ['user']), DEV_JWT_KEY, 'none')}`),
      fc.uuid().map((id) => `Bearer ${signHs256(userClaims(id, ['user'], -600))}`),
      fc.uuid().map((id) => `Bearer ${accessToken(id)}`),
    ),
    'accept-language': fc.constantFrom(
      '*',
      'ru;q=abc',
      'x'.repeat(4000),
      'ua, ru;q=0.5, en;q=2',
      ';;;,,,',
      'zz-ZZ',
      'en;q=-1',
    ),
    'x-forwarded-for': fc.constantFrom(
      'not-an-ip',
      '::::::',
      '999.999.999.999',
      '1.1.1.1, 2.2.2.2, ' + '3.3.3.3, '.repeat(200),
      '',
    ),
    cookie: fc.constantFrom(
      'accessToken=garbage',
      'referral_code=%E0%A4%A',
      `accessToken=${'A'.repeat(4000)}`,
      '=;=;=',
      'referral_code=../..',
    ),
    'x-request-id': fc.constantFrom('', 'x'.repeat(500), '../../etc', '<script>'),
  },
  { requiredKeys: [] },
);

/** Origins the service does not serve: refused (403) before the body is read. */
const foreignOrigin = fc.constantFrom(
  'null',
  'http://evil.example',
  'https://exchange.example.evil',
  '',
);

const shapedShot = fc.tuple(fc.constantFrom(...ENDPOINTS), fc.nat(19)).chain(([path, variant]) =>
  fc
    .tuple(shapedBody(path), abusiveHeaders, foreignOrigin)
    .map(([body, headers, origin]): AuthShot =>
      shortPrint({
        kind: variant < 12 ? 'shaped' : variant < 19 ? 'shaped+headers' : 'origin',
        method: 'POST',
        path,
        headers: {
          ...JSON_TYPE,
          ...(variant < 12 ? {} : headers),
          ...(variant === 19 ? { origin } : {}),
        },
        body: JSON.stringify(body),
      }),
    ),
);

/** Sizes around the 16 kB limit, and far over it. */
const sizeShot = fc
  .tuple(
    fc.constantFrom(...ENDPOINTS),
    fc.constantFrom(16_000, 16_383, 16_384, 16_385, 17_000, 1_000_000, 5_000_000),
  )
  .map(([path, size]): AuthShot => {
    const prefix = '{"email":"';
    const suffix = '@example"}';
    const filler = 'a'.repeat(Math.max(0, size - prefix.length - suffix.length));
    return shortPrint({
      kind: 'size',
      method: 'POST',
      path,
      headers: JSON_TYPE,
      body: `${prefix}${filler}${suffix}`,
    });
  });

/** Other methods and paths, and query strings. */
const routeShot = fc
  .tuple(
    fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST'),
    fc.constantFrom(
      ...ENDPOINTS,
      '/',
      '/admin',
      '/login/',
      '/LOGIN',
      '/%2e%2e/etc/passwd',
      '/login%00',
      '/login?email=a@b.c',
      `/${'a'.repeat(3000)}`,
      '/healthz?x=%ff',
      '/.env',
    ),
  )
  .map(([method, path]): AuthShot =>
    shortPrint({
      kind: 'route',
      method,
      path,
      headers: JSON_TYPE,
      body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
    }),
  );

/** Malformed framing over a raw socket: Node refuses it before the service sees it. */
const framingShot = fc
  .tuple(fc.constantFrom(...ENDPOINTS), fc.nat(6))
  .map(([path, variant]): AuthShot => {
    const body = '{"email":"x"}';
    const requests = [
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 13\r\n\r\n${body}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 13\r\n\r\n${body}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nBroken header line\r\nContent-Length: 13\r\n\r\n${body}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n${body}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\nTransfer-Encoding: chunked\r\n\r\nd\r\n${body}\r\n0\r\n\r\n`,
      `GARBAGE ${path} HTTP/9.9\r\n\r\n`,
    ];
    return shortPrint({
      kind: 'framing',
      method: 'RAW',
      path,
      headers: {},
      body: undefined,
      raw: requests[variant]!,
    });
  });

/** Content types and encodings beyond the existing fuzz's: duplicates, parameters, junk. */
const typeShot = fc
  .tuple(
    fc.constantFrom(...ENDPOINTS),
    fc.constantFrom(
      'application/json; charset=utf-32',
      'application/json; charset="utf-8"; charset=latin1',
      'application/json;;',
      'APPLICATION/JSON',
      'application/json-patch+json',
      'application/vnd.api+json',
      'text/json',
      'text/plain; charset=utf-8',
      'application/json, text/plain',
    ),
  )
  .map(([path, type]): AuthShot =>
    shortPrint({
      kind: 'content-type',
      method: 'POST',
      path,
      headers: { 'content-type': type },
      body: `{"email":"nope","refreshToken":"${'A'.repeat(43)}"}`,
    }),
  );

const authShot: fc.Arbitrary<AuthShot> = fc.oneof(
  { weight: 14, arbitrary: shapedShot },
  { weight: 2, arbitrary: sizeShot },
  { weight: 2, arbitrary: routeShot },
  { weight: 1, arbitrary: framingShot },
  { weight: 1, arbitrary: typeShot },
);

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
