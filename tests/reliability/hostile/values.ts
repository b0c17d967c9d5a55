import fc from 'fast-check';

/*
 * Hostile values shared by the hostile-input checks: strings that attack SQL, patterns,
 * encodings and sizes; numbers and identifiers that a schema's types accept but a product
 * should refuse.
 */

/** SQL injection attempts, as values (`where`, arguments) and as identifiers (keys, enums). */
export const SQL_INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE public.portal_users; --",
  '"; DROP TABLE "transactions"; --',
  '1; UPDATE public.portal_users SET is_disabled = true; --',
  "') UNION SELECT email, password_hash FROM public.portal_users --",
  "x' || pg_sleep(5) || '",
  "'; SELECT pg_sleep(10); --",
  '$$; DELETE FROM public.currencies; $$',
  "E'\\x27 OR 1=1 --",
  '1) OR (1=1',
  'asc; DROP TABLE rates',
  'desc nulls first, (SELECT 1/0)',
  "\\'; COPY portal_users TO '/tmp/x'; --",
  "' AND 1=(SELECT count(*) FROM pg_catalog.pg_tables) --",
  '*/ OR 1=1 /*',
  "%' AND '1'='1",
  '{}\'::jsonb || \'{"a":1}',
  "current_setting('hasura.user')",
] as const;

/** Patterns for `_like`, `_ilike`, `_similar`, `_regex` and friends: malformed, costly, escaping. */
export const PATTERNS = [
  '%',
  '%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%',
  '_',
  '\\',
  'abc\\',
  '%\\%',
  '[',
  '(',
  ')',
  '(a+)+$',
  '^(a|a)*$',
  '(.*a){20}',
  '((((((((((a))))))))))*',
  '(?=a)',
  '(?<=a)b',
  '\\1',
  '[[:alpha:]',
  '[z-a]',
  'a{1000000}',
  'a{2,1}',
  '(a{1,100}){1,100}',
  '*',
  '+',
  '?',
  '|||',
  '%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_x',
  '\\x00',
  '***',
  '(?i)',
  '\\p{L}',
] as const;

/** Characters that break encodings or naive code: NUL, C0/C1 controls, bidi, surrogate halves. */
export const NASTY_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200e',
  '\u202e',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  'é',
  'ǅ',
  'ß',
  'İ',
  '𝔘',
  '\u0301',
  '"',
  "'",
  '\\',
  '`',
  '$',
  '{',
  '}',
  '<',
  '>',
  '&',
  '%',
] as const;

export const nastyCharacter = fc.constantFrom(...NASTY_CHARACTERS);

/** A string with hostile characters scattered through it. */
export const nastyString = fc
  .array(
    fc.oneof(
      nastyCharacter,
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** A long string: 1k to `max` characters of one repeated piece. */
export const longString = (max: number) =>
  fc
    .tuple(
      fc.integer({ min: Math.min(1_000, max), max }),
      fc.constantFrom('a', 'Ж', '\u0000', '%', '😀', "'", '\\', ' ', 'x<'),
    )
    .map(([length, piece]) => piece.repeat(Math.ceil(length / piece.length)));

/** Any hostile string, overlong ones up to `max` characters. */
export const hostileString = (max = 40_000) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SQL_INJECTIONS) },
    { weight: 2, arbitrary: fc.constantFrom(...PATTERNS) },
    { weight: 4, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '   ', 'null', 'undefined', 'NaN', '0') },
    { weight: 1, arbitrary: longString(max) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  );

/** Decimal strings a `numeric` argument accepts as a type but a product should refuse. */
export const hostileNumeric = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '0.0',
    '-1',
    '-0.000001',
    '1e308',
    '1e-308',
    '1e999999',
    'NaN',
    'Infinity',
    '-Infinity',
    '+1',
    '.5',
    '5.',
    '1,5',
    '0x10',
    '1_000',
    ' 1',
    '1 ',
    '١٢٣',
    '99999999999999999999999999999999999999999999999999',
    '0.00000000000000000000000000000000000000000000000001',
    '100000000000000000000',
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 400 }))
    .map(
      ([whole, fraction]) =>
        `${'9'.repeat(whole)}${fraction > 0 ? `.${'3'.repeat(fraction)}` : ''}`,
    ),
  fc.double({ noNaN: false }).map((value) => String(value)),
  fc.bigInt().map((value) => value.toString()),
);

/** Strings that are not uuids but look close to one. */
export const hostileUuid = fc.oneof(
  fc.constantFrom(
    '',
    '00000000-0000-0000-0000-00000000000',
    '00000000-0000-0000-0000-0000000000000',
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    '{00000000-0000-0000-0000-000000000000}',
    '00000000000000000000000000000000',
    "00000000-0000-0000-0000-000000000000' OR '1'='1",
    '00000000-0000-0000-0000-000000000000\u0000',
    '../../etc/passwd',
  ),
  fc.uuid().map((uuid) => uuid.toUpperCase().replaceAll('-', '')),
  fc.uuid().map((uuid) => `${uuid}x`),
  fc.uuid().map((uuid) => ` ${uuid} `),
);

/** Unknown values where the product expects one of a few words (side, outcome, category, ...). */
export const unknownWord = fc.oneof(
  fc.constantFrom(
    'SEND',
    'Send',
    'send ',
    ' receive',
    'both',
    'refund\u0000',
    'paid; --',
    '__proto__',
    'constructor',
    'toString',
    'null',
    '*',
    'continue\n',
    'rejected\u202e',
  ),
  fc.string({ maxLength: 12 }),
);
