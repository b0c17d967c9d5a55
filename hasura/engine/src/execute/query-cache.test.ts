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
  it('finds the statement whose plan-shaping values match, among a bounded few per key', () => {
    const cache = createQueryCache();
    cache.keep('k', template('limit 1', [['n', '1']]));
    cache.keep('k', template('limit 2', [['n', '2']]));
    expect(cache.find('k', { n: 2 }, session)?.sql).toBe('limit 2');
    expect(cache.find('k', { n: 3 }, session)).toBeUndefined();
    for (let n = 3; n < 10; n += 1) cache.keep('k', template(`limit ${n}`, [['n', String(n)]]));
    expect(cache.size).toBe(4);
  });

  it('forgets the least recently used key past its bound', () => {
    const cache = createQueryCache();
    cache.keep('first', template('1'));
    for (let i = 0; i < 999; i += 1) cache.keep(`k${i}`, template(String(i)));
    expect(cache.find('first', {}, session)?.sql).toBe('1');
    cache.keep('one more', template('x'));
    expect(cache.find('first', {}, session)?.sql).toBe('1');
    expect(cache.find('k0', {}, session)).toBeUndefined();
    expect(cache.size).toBe(1000);
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
