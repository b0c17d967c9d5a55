import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { createUser, migratedDatabase, PASSWORD, startAuth, type AuthServer } from './harness.ts';

/*
 * 2,400 malformed requests spread over every endpoint, from a fixed seed: bad JSON, JSON that
 * is not an object, wrong types, huge strings, missing fields, odd encodings and charsets,
 * deep nesting and prototype-pollution keys. None may get a 5xx, crash the service, pollute
 * Object.prototype, or write a row.
 */

const SEED = 20_261_121;
const RUNS = 2_400;

/** Each endpoint with the field that must be present and well-formed for the body to pass. */
const ENDPOINTS: Record<string, { key: string; others: string[] }> = {
  '/login': { key: 'email', others: ['password', 'locale'] },
  '/login_with_2fa': { key: 'token', others: ['code'] },
  '/quick-auth': { key: 'email', others: ['referralCode'] },
  '/register': { key: 'email', others: ['password', 'confirmPassword', 'referralCode'] },
  '/refresh_tokens': { key: 'refreshToken', others: [] },
  '/reset_password': { key: 'email', others: ['locale'] },
  '/change-password': { key: 'token', others: ['password', 'confirmPassword', 'currentPassword'] },
  '/telegram-auth': { key: 'initData', others: [] },
  '/logout': { key: 'refreshToken', others: [] },
  '/two-factor': { key: 'password', others: ['enabled', 'token', 'code'] },
};

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'isAdmin', 'x-hasura-role'];

/** A value that can never pass as the key field (no '@', never 43 base64url characters). */
const badValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/@/g, '')),
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) => s.replace(/@/g, '')),
  fc.nat({ max: 4 }).map((n) => 'x'.repeat(1000 * (n + 1))),
  fc.constantFrom('', ' ', 'a'.repeat(44), '\u0000', 'user=1&hash=zz', '{"$ne":null}'),
);

const anyValue = fc.oneof(badValue, fc.string({ maxLength: 30 }), fc.constant(PASSWORD));

const pollution = fc.constantFrom(
  '{"__proto__":{"isAdmin":true,"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
);

interface Shot {
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

const json = { 'content-type': 'application/json' };

const shot: fc.Arbitrary<Shot> = fc
  .tuple(fc.constantFrom(...Object.keys(ENDPOINTS)), fc.nat({ max: 9 }))
  .chain(([path, kind]) => {
    const { key, others } = ENDPOINTS[path]!;
    const fields = fc
      .record(
        {
          key: fc.option(badValue, { nil: undefined }),
          rest: fc.dictionary(fc.constantFrom(...others, ...POLLUTION_KEYS), anyValue, {
            maxKeys: 4,
          }),
        },
        { requiredKeys: ['rest'] },
      )
      .map(({ key: value, rest }) => ({
        ...rest,
        ...(value === undefined ? {} : { [key]: value }),
      }));
    switch (kind) {
      case 0:
      case 1:
      case 2: // wrong types, missing key field, junk beside it
        return fields.map((body) => ({ path, headers: json, body: JSON.stringify(body) }));
      case 3: // not JSON at all, or truncated JSON
        return fc
          .oneof(
            fc.string({ maxLength: 80 }),
            fields.map((b) => JSON.stringify(b).slice(0, -1)),
          )
          .map((body) => ({ path, headers: json, body: `{${body}` }));
      case 4: // JSON that is not an object
        return fc
          .oneof(
            fc
              .jsonValue({ maxDepth: 2 })
              .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
            fc.array(fields, { maxLength: 3 }),
          )
          .map((value) => ({ path, headers: json, body: JSON.stringify(value) ?? 'null' }));
      case 5: // prototype pollution, raw so the keys survive serialisation
        return pollution.map((body) => ({ path, headers: json, body }));
      case 6: // deep nesting and oversized bodies
        return fc
          .oneof(
            fc.integer({ min: 100, max: 7000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
            fc.integer({ min: 100, max: 3000 }).map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
            fc.integer({ min: 17_000, max: 40_000 }).map((n) => `{"${key}":"${'a'.repeat(n)}"}`),
          )
          .map((body) => ({ path, headers: json, body }));
      case 7: // odd encodings and charsets
        return fields.chain((body) =>
          fc.constantFrom<Shot>(
            {
              path,
              headers: { 'content-type': 'application/json; charset=utf-16' },
              body: Buffer.from(JSON.stringify(body), 'utf16le'),
            },
            {
              path,
              headers: { 'content-type': 'application/json; charset=latin1' },
              body: JSON.stringify(body),
            },
            { path, headers: { ...json, 'content-encoding': 'gzip' }, body: JSON.stringify(body) },
            {
              path,
              headers: json,
              body: Buffer.concat([
                Buffer.from([0xef, 0xbb, 0xbf]),
                Buffer.from(JSON.stringify(body)),
              ]),
            },
            {
              path,
              headers: json,
              body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
            },
          ),
        );
      case 8: // other content types
        return fc
          .tuple(
            fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data; boundary=x',
              'application/xml',
              '',
            ),
            fields,
          )
          .map(([type, body]): Shot => ({
            path,
            headers: type ? { 'content-type': type } : {},
            body:
              type === 'text/plain' && path !== '/telegram-auth'
                ? JSON.stringify(body)
                : `${key}=junk&hash=${'0'.repeat(64)}`,
          }));
      default: // an empty body
        return fc.constant({ path, headers: json, body: '' });
    }
  });

describe.each(databaseTargets)('malformed requests on $name', (target) => {
  let db: TestDatabase;
  let server: AuthServer;

  const rowCounts = async () =>
    (
      await db.pool.query(
        `SELECT (SELECT count(*) FROM public.portal_users) AS users,
                (SELECT count(*) FROM public.roles) AS roles,
                (SELECT count(*) FROM auth.refresh_tokens) AS refresh,
                (SELECT count(*) FROM auth.login_codes) AS codes,
                (SELECT count(*) FROM auth.password_reset_tokens) AS resets,
                (SELECT count(*) FROM auth.rate_limits) AS limits,
                (SELECT max(updated_at) FROM public.portal_users) AS touched`,
      )
    ).rows[0] as Record<string, unknown>;

  beforeAll(async () => {
    db = await migratedDatabase(target);
    server = await startAuth(db, undefined);
    await createUser(db, { email: 'fuzz@example.com', password: PASSWORD, is2fa: true });
    await server.post('/refresh_tokens', { refreshToken: 'C'.repeat(43) });
  });
  afterAll(async () => {
    await server?.close();
    await db?.dispose();
  });

  it(`survives ${RUNS} malformed bodies with 4xx answers and no writes`, async () => {
    const before = await rowCounts();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(shot, async ({ path, headers, body }) => {
        const response = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, `${path} ${text}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${path} ${text}`).toBeLessThan(500);
        const parsed = JSON.parse(text) as { code: unknown; message: unknown };
        expect(typeof parsed.code).toBe('string');
        expect(typeof parsed.message).toBe('string');
        expect(text).not.toMatch(/at .+\.ts:\d+/);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(await rowCounts()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    expect((await server.request('/healthz', { method: 'GET' })).status).toBe(200);
    // Every endpoint and a spread of refusals were exercised.
    expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([400, 401, 413, 415]));
  });
});
