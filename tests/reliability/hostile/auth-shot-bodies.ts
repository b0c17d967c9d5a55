import fc from 'fast-check';

import { PASSWORD } from '../../integration/auth/harness.ts';

import { hostileString, nastyString, SQL_INJECTIONS } from './values.ts';

/*
 * Hostile bodies for the auth endpoints (issue 11): each endpoint's fields with values of the
 * right type that are hostile (e-mails that almost pass, look-alikes, header injection, overlong
 * passwords, tokens and codes that match nothing), wrong types, and missing and extra fields.
 */

export const EXISTING_EMAIL = 'hostile-auth@example.com';

export const JSON_TYPE = { 'content-type': 'application/json' };
export const ENDPOINTS = [
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
export function shapedBody(
  path: (typeof ENDPOINTS)[number],
): fc.Arbitrary<Record<string, unknown>> {
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
