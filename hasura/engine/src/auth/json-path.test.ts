import { describe, expect, it } from 'vitest';

import { encodeJsonPath, executeJsonPath, parseJsonPath } from './json-path.ts';

describe('parseJsonPath', () => {
  it.each([
    ['$', []],
    ['$.hasura.claims', ['hasura', 'claims']],
    ['$.a[0].b', ['a', 0, 'b']],
    ["$['https://hasura.io/jwt/claims'].x", ['https://hasura.io/jwt/claims', 'x']],
    ['$["a.b"]', ['a.b']],
    ['a.b', ['a', 'b']],
    ['$.x-hasura_1', ['x-hasura_1']],
  ])('%s', (text, path) => {
    expect(parseJsonPath(text)).toEqual(path);
  });

  it.each(['', '$.', '$..a', '$[a]', "$['a'", '$.a b', '$[1'])('refuses %j', (text) => {
    expect(() => parseJsonPath(text)).toThrow(/Accept letters, digits, underscore/);
  });
});

describe('encodeJsonPath', () => {
  it('prints names with dots and other keys in brackets', () => {
    expect(encodeJsonPath([])).toBe('$');
    expect(encodeJsonPath(['hasura', 'claims', 0])).toBe('$.hasura.claims[0]');
    expect(encodeJsonPath(['https://hasura.io/jwt/claims'])).toBe(
      "$['https://hasura.io/jwt/claims']",
    );
  });
});

describe('executeJsonPath', () => {
  const doc = { a: { b: [10, { c: 'x' }] }, n: null };
  it('follows keys and indexes', () => {
    expect(executeJsonPath(doc, [])).toBe(doc);
    expect(executeJsonPath(doc, ['a', 'b', 1, 'c'])).toBe('x');
    expect(executeJsonPath(doc, ['n'])).toBeNull();
  });
  it('is undefined for a missing step', () => {
    expect(executeJsonPath(doc, ['a', 'x'])).toBeUndefined();
    expect(executeJsonPath(doc, ['a', 'b', 5])).toBeUndefined();
    expect(executeJsonPath(doc, ['a', 0])).toBeUndefined();
    expect(executeJsonPath(doc, ['n', 'x'])).toBeUndefined();
    expect(executeJsonPath(doc, ['toString'])).toBeUndefined();
  });
});
