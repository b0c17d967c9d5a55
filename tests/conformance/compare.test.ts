import { describe, expect, it } from 'vitest';

import {
  compareAllowed,
  compareResponse,
  dataKeyOrderDifference,
  eventMismatch,
  firstDifference,
  subsetMismatch,
  type DeliveredEvent,
  type ExpectedEvent,
} from './compare.ts';

describe('firstDifference', () => {
  it('ignores object key order but not array order', () => {
    expect(firstDifference({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBeNull();
    expect(firstDifference([1, 2], [2, 1])).toBe('$[0]: expected 1, got 2');
  });

  it('names the first missing, extra or different value with its path', () => {
    expect(firstDifference({ a: { b: 1 } }, { a: {} })).toBe('$.a.b: missing (expected 1)');
    expect(firstDifference({ a: 1 }, { a: 1, c: 2 })).toBe('$.c: unexpected key (got 2)');
    expect(firstDifference({ 'odd key': '1' }, { 'odd key': 1 })).toBe(
      '$["odd key"]: expected "1", got 1',
    );
    expect(firstDifference([1], [1, 2])).toMatch(/^\$: expected 1 items, got 2/);
    expect(firstDifference(null, {})).toBe('$: expected null, got {}');
  });
});

describe('compareResponse: key order inside data', () => {
  const body = {
    query: `query q {
      author { id name articles: get_articles { title meta } }
      ...Rest
    }
    fragment Rest on query_root { article { ... on article { id title } } }`,
  };

  it('passes when selection-set objects keep the expected key order', () => {
    const response = {
      data: {
        author: [{ id: 1, name: 'A', articles: [{ title: 't', meta: { x: 1, y: 2 } }] }],
        article: [{ id: 1, title: 't' }],
      },
    };
    expect(compareResponse(response, structuredClone(response), body)).toEqual({
      ok: true,
      drift: [],
    });
  });

  it('fails when a selection-set object lists keys in another order (aliases, fragments included)', () => {
    const expected = {
      data: { author: [{ id: 1, name: 'A', articles: [] }], article: [{ id: 1, title: 't' }] },
    };
    const reordered = {
      data: { author: [{ name: 'A', id: 1, articles: [] }], article: [{ id: 1, title: 't' }] },
    };
    const result = compareResponse(expected, reordered, body);
    expect(result.ok).toBe(false);
    expect(result.diff).toBe(
      '$.data.author[0]: key order expected [id, name, articles], got [name, id, articles]',
    );
    const viaFragment = {
      data: { author: [{ id: 1, name: 'A', articles: [] }], article: [{ title: 't', id: 1 }] },
    };
    expect(compareResponse(expected, viaFragment, body).diff).toMatch(
      /^\$\.data\.article\[0\]: key order/,
    );
    const rootOrder = {
      data: { article: [{ id: 1, title: 't' }], author: [{ id: 1, name: 'A', articles: [] }] },
    };
    expect(compareResponse(expected, rootOrder, body).diff).toMatch(/^\$\.data: key order/);
  });

  it('compares leaf (json) values without key order', () => {
    const expected = {
      data: { author: [{ id: 1, name: 'A', articles: [{ title: 't', meta: { x: 1, y: 2 } }] }] },
    };
    const actual = {
      data: { author: [{ id: 1, name: 'A', articles: [{ title: 't', meta: { y: 2, x: 1 } }] }] },
    };
    expect(compareResponse(expected, actual, body).ok).toBe(true);
  });

  it('does not check order outside data, nor when the query does not parse', () => {
    expect(dataKeyOrderDifference({ a: 1, b: 2 }, { b: 2, a: 1 }, { query: 'query {' })).toBeNull();
    expect(
      compareResponse({ data: { a: 1, b: 2 } }, { data: { b: 2, a: 1 } }, { query: '{ a b }' }).ok,
    ).toBe(false);
  });

  it('picks the operation by operationName', () => {
    const named = { query: 'query one { a b } query two { b a }', operationName: 'two' };
    expect(compareResponse({ data: { b: 1, a: 2 } }, { data: { b: 1, a: 2 } }, named).ok).toBe(
      true,
    );
    expect(compareResponse({ data: { b: 1, a: 2 } }, { data: { a: 2, b: 1 } }, named).ok).toBe(
      false,
    );
  });
});

describe('compareResponse: errors', () => {
  const expected = {
    errors: [
      {
        extensions: { path: '$.selectionSet.x', code: 'validation-failed' },
        message: "field 'x' not found in type: 'query_root'",
      },
    ],
  };

  it('compares errors without key order', () => {
    const actual = {
      errors: [
        {
          message: "field 'x' not found in type: 'query_root'",
          extensions: { code: 'validation-failed', path: '$.selectionSet.x' },
        },
      ],
    };
    expect(compareResponse(expected, actual, undefined)).toEqual({ ok: true, drift: [] });
  });

  it('reports a different message as drift, not a failure', () => {
    const actual = {
      errors: [
        {
          message: 'field "x" not found',
          extensions: { code: 'validation-failed', path: '$.selectionSet.x' },
        },
      ],
    };
    const result = compareResponse(expected, actual, undefined);
    expect(result.ok).toBe(true);
    expect(result.drift).toEqual([
      `$.errors[0].message: expected "field 'x' not found in type: 'query_root'", got "field \\"x\\" not found"`,
    ]);
  });

  it('fails on a different code or path, a missing message or extra extension keys', () => {
    const withCode = structuredClone(expected);
    withCode.errors[0]!.extensions.code = 'not-found';
    expect(compareResponse(expected, withCode, undefined).diff).toBe(
      '$.errors[0].extensions.code: expected "validation-failed", got "not-found"',
    );
    const withPath = structuredClone(expected);
    withPath.errors[0]!.extensions.path = '$';
    expect(compareResponse(expected, withPath, undefined).ok).toBe(false);
    const noMessage = { errors: [{ extensions: expected.errors[0]!.extensions }] };
    expect(compareResponse(expected, noMessage, undefined).diff).toMatch(/message: missing/);
    const extra = {
      errors: [
        { ...expected.errors[0], extensions: { ...expected.errors[0]!.extensions, foo: 1 } },
      ],
    };
    expect(compareResponse(expected, extra, undefined).diff).toBe(
      '$.errors[0].extensions.foo: unexpected key (got 1)',
    );
  });

  it('treats extensions.internal as drift', () => {
    const want = {
      errors: [{ message: 'm', extensions: { code: 'unexpected', path: '$', internal: { a: 1 } } }],
    };
    const got = {
      errors: [{ message: 'm', extensions: { code: 'unexpected', path: '$', internal: { a: 2 } } }],
    };
    const result = compareResponse(want, got, undefined);
    expect(result.ok).toBe(true);
    expect(result.drift).toEqual(['$.errors[0].extensions.internal.a: expected 1, got 2']);
  });

  it('requires data: null when it is expected beside errors, and shows unexpected errors', () => {
    const want = { data: null, errors: expected.errors };
    expect(compareResponse(want, { errors: expected.errors }, undefined).diff).toBe(
      '$.data: missing (expected null)',
    );
    expect(compareResponse({ data: { a: 1 } }, expected, { query: '{ a }' }).diff).toMatch(
      /^\$: expected no errors, got errors \[/,
    );
    expect(compareResponse(expected, { data: { a: 1 } }, undefined).diff).toMatch(
      /^\$: expected errors/,
    );
  });

  it('compares batched responses element by element, each with its own query', () => {
    const bodies = [{ query: '{ a b }' }, { query: '{ b a }' }];
    const want = [{ data: { a: 1, b: 2 } }, { data: { b: 2, a: 1 } }];
    expect(compareResponse(want, structuredClone(want), bodies).ok).toBe(true);
    const swapped = [{ data: { a: 1, b: 2 } }, { data: { a: 1, b: 2 } }];
    expect(compareResponse(want, swapped, bodies).diff).toMatch(/^\$\[1\]\.data: key order/);
    expect(compareResponse(want, want[0], bodies).ok).toBe(false);
  });
});

describe('compareAllowed', () => {
  const pg12 = {
    errors: [
      { message: 'null value violates', extensions: { code: 'constraint-violation', path: '$' } },
    ],
  };
  const pg13 = {
    errors: [
      {
        message: 'null value of relation',
        extensions: { code: 'constraint-violation', path: '$' },
      },
    ],
  };

  it('prefers an exact match, then one with only drift', () => {
    expect(compareAllowed([pg12, pg13], structuredClone(pg13), undefined)).toEqual({
      ok: true,
      drift: [],
    });
    const other = {
      errors: [{ message: 'other', extensions: { code: 'constraint-violation', path: '$' } }],
    };
    const result = compareAllowed([pg12, pg13], other, undefined);
    expect(result.ok).toBe(true);
    expect(result.drift).toHaveLength(1);
  });

  it('fails with the first alternative`s difference', () => {
    const wrong = { errors: [{ message: 'x', extensions: { code: 'unexpected', path: '$' } }] };
    expect(compareAllowed([pg12, pg13], wrong, undefined).diff).toMatch(
      /extensions.code.*and 1 other/,
    );
  });
});

describe('subsetMismatch', () => {
  it('checks only the keys the expectation lists', () => {
    expect(
      subsetMismatch({ type: 'data', id: '1' }, { type: 'data', id: '1', payload: {} }),
    ).toBeNull();
    expect(subsetMismatch({ type: 'data' }, { type: 'error' })).toMatch(
      /^\$\.type: expected "data", got "error"/,
    );
  });
});

describe('eventMismatch', () => {
  const expected: ExpectedEvent = {
    trigger: 't1_all',
    table: { schema: 'hge_tests', name: 'test_t1' },
    op: 'UPDATE',
    data: { old: { c1: 1, c2: 'hello' }, new: { c1: 1, c2: 'world' } },
    session_variables: { 'x-hasura-role': 'admin' },
    webhook_path: '/',
    current_retry: 0,
    headers: { 'X-Header-From-Env': 'MyEnvValue' },
  };
  const delivery = (): DeliveredEvent => ({
    path: '/',
    headers: { 'x-header-from-env': 'MyEnvValue', 'content-type': 'application/json' },
    body: {
      id: 'a0b1',
      created_at: '2026-01-01T00:00:00Z',
      trigger: { name: 't1_all' },
      table: { name: 'test_t1', schema: 'hge_tests' },
      event: {
        op: 'UPDATE',
        session_variables: { 'x-hasura-role': 'admin' },
        data: { new: { c2: 'world', c1: 1 }, old: { c1: 1, c2: 'hello' } },
      },
      delivery_info: { max_retries: 0, current_retry: 0 },
    },
  });

  it('accepts a matching delivery (header names case-insensitive, data without key order)', () => {
    expect(eventMismatch(expected, delivery())).toBeNull();
  });

  it('names what differs', () => {
    expect(eventMismatch({ ...expected, webhook_path: '/fail' }, delivery())).toMatch(
      /^webhook path/,
    );
    expect(
      eventMismatch({ ...expected, headers: { 'X-Header-From-Value': 'MyValue' } }, delivery()),
    ).toMatch(/^header X-Header-From-Value/);
    expect(eventMismatch({ ...expected, current_retry: 1 }, delivery())).toMatch(/current_retry/);
    expect(
      eventMismatch(
        { ...expected, session_variables: { 'x-hasura-role': 'admin', 'x-hasura-user-id': '1' } },
        delivery(),
      ),
    ).toMatch(/session_variables/);
    const withoutId = delivery();
    delete (withoutId.body as Record<string, unknown>)['id'];
    expect(eventMismatch(expected, withoutId)).toMatch(/no "id" key/);
  });
});
