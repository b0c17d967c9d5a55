import { describe, expect, it } from 'vitest';

import {
  requestHeaders,
  resolvePlaceholders,
  substituteNow,
  toSubscriptionQuery,
  type PlaceholderState,
} from './transform.ts';

describe('substituteNow', () => {
  it('replaces $now, $now+N and $now-N anywhere in the claims, and nothing else', () => {
    const claims = {
      iat: '$now',
      exp: '$now+36000',
      nbf: '$now-60',
      name: 'John $now',
      'https://hasura.io/jwt/claims': {
        'x-hasura-allowed-roles': ['user', '$now'],
        'x-hasura-user-id': '1',
      },
    };
    expect(substituteNow(claims, 1_700_000_000)).toEqual({
      iat: 1_700_000_000,
      exp: 1_700_036_000,
      nbf: 1_699_999_940,
      name: 'John $now',
      'https://hasura.io/jwt/claims': {
        'x-hasura-allowed-roles': ['user', 1_700_000_000],
        'x-hasura-user-id': '1',
      },
    });
  });

  it('keeps key order and leaves the input untouched', () => {
    const claims = { sub: '1', iat: '$now', exp: '$now+4' };
    const result = substituteNow(claims, 10);
    expect(Object.keys(result)).toEqual(['sub', 'iat', 'exp']);
    expect(claims.iat).toBe('$now');
  });
});

describe('toSubscriptionQuery', () => {
  it('rewrites `query {` as pytest does', () => {
    expect(toSubscriptionQuery('query {\n  author { id }\n}\n')).toBe(
      'subscription @_multiple_top_level_fields {\n  author { id }\n}\n',
    );
  });

  it('leaves named or shorthand queries alone (pytest replaces only `query {`)', () => {
    expect(toSubscriptionQuery('query q { a }')).toBe('query q { a }');
    expect(toSubscriptionQuery('{ a }')).toBe('{ a }');
  });
});

describe('resolvePlaceholders', () => {
  const values = { adminSecret: 's3cret', wrongSecret: 'nope', token: 'tok', uuid: () => 'u-1' };

  it('fills the secret placeholders, or drops the key when no secret is configured', () => {
    const init = {
      payload: { headers: { 'X-Hasura-Admin-Secret': '<configured secret, if any>' } },
    };
    expect(resolvePlaceholders(init, values)).toEqual({
      payload: { headers: { 'X-Hasura-Admin-Secret': 's3cret' } },
    });
    expect(resolvePlaceholders(init, { wrongSecret: 'nope' })).toEqual({
      payload: { headers: {} },
    });
    expect(
      resolvePlaceholders({ h: '<secret if configured>', w: '<random wrong value>' }, values),
    ).toEqual({
      h: 's3cret',
      w: 'nope',
    });
  });

  it('generates <uuid> and repeats it for <same uuid> across calls sharing a state', () => {
    let n = 0;
    const state: PlaceholderState = {};
    const counting = { ...values, uuid: () => `u-${++n}` };
    expect(resolvePlaceholders({ id: '<uuid>' }, counting, state)).toEqual({ id: 'u-1' });
    expect(resolvePlaceholders({ id: '<same uuid>' }, counting, state)).toEqual({ id: 'u-1' });
    expect(resolvePlaceholders({ id: '<uuid>' }, counting, state)).toEqual({ id: 'u-2' });
  });

  it('substitutes <token> inside strings', () => {
    expect(resolvePlaceholders({ Authorization: 'Bearer <token>' }, values)).toEqual({
      Authorization: 'Bearer tok',
    });
  });
});

describe('requestHeaders', () => {
  const values = { adminSecret: 's3cret', wrongSecret: 'nope' };

  it('adds the admin secret to the case headers when the runner sends it', () => {
    expect(
      requestHeaders(
        { 'X-Hasura-Role': 'user', 'X-Hasura-User-Id': 1 },
        { sendAdminSecret: true, values },
      ),
    ).toEqual({
      'X-Hasura-Role': 'user',
      'X-Hasura-User-Id': '1',
      'X-Hasura-Admin-Secret': 's3cret',
    });
  });

  it('sends nothing extra when told not to, or when no secret is configured', () => {
    expect(requestHeaders({ 'X-Hasura-Role': 'user' }, { sendAdminSecret: false, values })).toEqual(
      {
        'X-Hasura-Role': 'user',
      },
    );
    expect(
      requestHeaders(undefined, { sendAdminSecret: true, values: { wrongSecret: 'x' } }),
    ).toEqual({});
  });

  it('keeps a secret the case sets itself (placeholders resolved)', () => {
    expect(
      requestHeaders(
        { 'x-hasura-admin-secret': '<random wrong value>' },
        { sendAdminSecret: true, values },
      ),
    ).toEqual({ 'x-hasura-admin-secret': 'nope' });
  });
});
