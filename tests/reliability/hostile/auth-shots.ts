import fc from 'fast-check';

import { DEV_JWT_KEY, signHs256, userClaims } from '../../support/jwt.ts';

import { ENDPOINTS, JSON_TYPE, shapedBody } from './auth-shot-bodies.ts';

/*
 * The hostile requests sent to the auth service (issue 11): shaped bodies with abusive headers,
 * sizes around the body limit, unknown routes and methods, malformed framing over a raw socket
 * and wrong content types, each printed short when fast-check reports it.
 */

export interface AuthShot {
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

export const authShot: fc.Arbitrary<AuthShot> = fc.oneof(
  { weight: 14, arbitrary: shapedShot },
  { weight: 2, arbitrary: sizeShot },
  { weight: 2, arbitrary: routeShot },
  { weight: 1, arbitrary: framingShot },
  { weight: 1, arbitrary: typeShot },
);
