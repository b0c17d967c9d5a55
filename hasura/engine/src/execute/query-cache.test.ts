import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';

import type { Session } from '../auth/session.ts';
import { VariableBindings } from '../plan/variable-bindings.ts';

import { createQueryCache, queryKey, type QueryTemplate } from './query-cache.ts';

const session: Session = { role: 'user', variables: { 'x-hasura-role': 'user' }, isAdmin: false };

const operationOf = (text: string) =>
  parse(text).definitions[0] as unknown as OperationDefinitionNode;

const template = (sql: string, pinned: Array<[string, string]> = []): QueryTemplate => ({
  sql,
  slots: [],
  params: [],
  pinned,
  session: undefined,
});

const keyParts = (
  variables: Record<string, unknown>,
  query = 'query Q($a: Int, $b: jsonb) { x }',
) => ({
  query,
  operationName: undefined,
  operation: operationOf(query),
  role: 'user',
  backendOnly: false,
  variables,
});

describe('queryKey', () => {
  it('keys a parameter-like value by its kind, any other value by the value itself', () => {
    expect(queryKey(keyParts({ a: 1, b: { k: 1 } }))).toBe(
      queryKey(keyParts({ a: 2, b: { k: 1 } })),
    );
    expect(queryKey(keyParts({ a: 1, b: { k: 1 } }))).not.toBe(
      queryKey(keyParts({ a: 1, b: { k: 2 } })),
    );
    expect(queryKey(keyParts({ a: 1 }))).not.toBe(queryKey(keyParts({ a: '1' })));
    expect(queryKey(keyParts({ a: 1 }))).not.toBe(queryKey(keyParts({ a: [1] })));
    expect(queryKey(keyParts({ a: 1 }))).not.toBe(queryKey(keyParts({ a: null })));
    expect(queryKey(keyParts({ a: null }))).not.toBe(queryKey(keyParts({})));
    expect(queryKey({ ...keyParts({ a: 1 }), role: 'admin' })).not.toBe(
      queryKey(keyParts({ a: 1 })),
    );
  });

  it('keeps nothing for a text or a value too large to hold', () => {
    const long = `query Q($a: Int) { x } # ${'-'.repeat(20_000)}`;
    expect(queryKey(keyParts({ a: 1 }, long))).toBeUndefined();
    expect(queryKey(keyParts({ b: { text: 'x'.repeat(30_000) } }))).toBeUndefined();
  });
});

describe('createQueryCache', () => {
  const documentOf = (text: string) => parse(text);

  it('finds the statement whose plan-shaping values match, among a bounded few per key', () => {
    const cache = createQueryCache();
    const document = documentOf('{ a }');
    cache.keep(document, 'k', template('limit 1', [['n', '1']]));
    cache.keep(document, 'k', template('limit 2', [['n', '2']]));
    expect(cache.find(document, 'k', { n: 2 }, session)?.sql).toBe('limit 2');
    expect(cache.find(document, 'k', { n: 3 }, session)).toBeUndefined();
    expect(cache.find(documentOf('{ a }'), 'k', { n: 2 }, session)).toBeUndefined();
    for (let n = 3; n < 10; n += 1)
      cache.keep(document, 'k', template(`limit ${n}`, [['n', String(n)]]));
    expect(cache.size).toBe(4);
    for (let k = 0; k < 30; k += 1) cache.keep(document, `k${k}`, template(String(k)));
    expect(cache.size).toBe(4 + 15);
  });

  it('forgets the least recently used document past its bound on statements', () => {
    const cache = createQueryCache();
    const first = documentOf('{ first }');
    const second = documentOf('{ second }');
    cache.keep(first, 'k', template('1'));
    cache.keep(second, 'k', template('2'));
    for (let i = 0; i < 1998; i += 1) cache.keep(documentOf(`{ d${i} }`), 'k', template(String(i)));
    expect(cache.size).toBe(2000);
    expect(cache.find(first, 'k', {}, session)?.sql).toBe('1');
    cache.keep(documentOf('{ one_more }'), 'k', template('x'));
    expect(cache.size).toBe(2000);
    expect(cache.find(first, 'k', {}, session)?.sql).toBe('1');
    expect(cache.find(second, 'k', {}, session)).toBeUndefined();
  });
});

describe('VariableBindings', () => {
  it('counts a variable as a parameter only when every use of it was a literal at its place', () => {
    const bindings = new VariableBindings({ id: 5, n: 3, unused: 'x' });
    bindings.placedAt('id', '$.args.id');
    expect(bindings.variables['id']).toBe(5);
    expect(bindings.literal(5, '$.args.id', String)).toEqual({
      kind: 'literal',
      value: '5',
      slot: 0,
    });
    // `n` is read where no literal is made of it (a limit, a directive): it shapes the plan.
    bindings.placedAt('n', '$.args.limit');
    expect(bindings.variables['n']).toBe(3);
    expect(bindings.isParameter('id')).toBe(true);
    expect(bindings.isParameter('n')).toBe(false);
    expect(bindings.isUnused('unused')).toBe(true);
    // A read that bypassed valueFromAst's report.
    expect(bindings.variables['id']).toBe(5);
    expect(bindings.isParameter('id')).toBe(false);
  });

  it('trusts nothing once the variables were enumerated', () => {
    const bindings = new VariableBindings({ id: 5 });
    bindings.placedAt('id', '$.args.id');
    void bindings.variables['id'];
    bindings.literal(5, '$.args.id', String);
    expect(Object.keys(bindings.variables)).toEqual(['id']);
    expect(bindings.isParameter('id')).toBe(false);
    expect(bindings.isUnused('id')).toBe(false);
  });

  it('makes no slot of a value that is not, unchanged, the variable placed there', () => {
    const bindings = new VariableBindings({ id: 'abc' });
    bindings.placedAt('id', '$.args.id');
    void bindings.variables['id'];
    expect(bindings.literal('ABC', '$.args.id', String)).toEqual({ kind: 'literal', value: 'ABC' });
    expect(bindings.literal('abc', '$.args.other', String)).toEqual({
      kind: 'literal',
      value: 'abc',
    });
    expect(bindings.isParameter('id')).toBe(false);
  });
});
