import { describe, expect, it } from 'vitest';

import { ActionError } from './errors.ts';
import { RawJson, RawNumber, stringifyJson } from './json.ts';
import { validateResponse } from './response.ts';
import { parseTypeRef, typeCatalog } from './types.ts';

const catalog = typeCatalog({
  scalars: [{ name: 'Custom' }],
  enums: [{ name: 'Mood', values: [{ value: 'HAPPY' }] }],
  input_objects: [],
  objects: [
    {
      name: 'Out',
      fields: [
        { name: 'id', type: 'Int!' },
        { name: 'name', type: 'String' },
      ],
      relationships: [],
    },
  ],
});

function messageOf(value: unknown, type: string): string | undefined {
  try {
    validateResponse(value, parseTypeRef(type), catalog);
    return undefined;
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    expect(error.toJSON().extensions).toMatchObject({ code: 'unexpected', path: '$' });
    return error.message;
  }
}

describe('validateResponse (Hasura rules)', () => {
  it.each([
    [{ id: 1 }, 'Out', undefined],
    [{ id: 1, extra: true }, 'Out', undefined],
    [null, 'Out', undefined],
    [null, 'Out!', 'got null for the action webhook response'],
    [{ name: 'x' }, 'Out', 'field "id" expected in webhook response, but not found'],
    [{ id: null }, 'Out', 'expecting not null value for field "id"'],
    [[{ id: 1 }], 'Out', 'got array for the action webhook response, expecting Out'],
    [{ id: 1 }, '[Out]', 'expecting array for the action webhook response'],
    [[{ id: 1 }, null, { id: null }], '[Out]', 'expecting not null value for field "id"'],
    ['x', 'Out', 'got scalar String for the action webhook response, expecting Out'],
    [1, 'String', 'got scalar String for the action webhook response, expecting String'],
    [true, 'Int', 'got scalar Boolean for the action webhook response, expecting Int'],
    [{ a: 1 }, 'String!', 'got object for the action webhook response, expecting String'],
    [['a', null], '[String]!', undefined],
    [{ anything: [1] }, 'Custom!', undefined],
    [null, 'json!', undefined],
    ['HAPPY', 'Mood', undefined],
    [[{ foo: 'bar' }], '[[Custom!]]!', 'expecting array for the action webhook response'],
  ])('%j as %s', (value, type, expected) => {
    expect(messageOf(value, type)).toBe(expected);
  });
});

describe('stringifyJson', () => {
  it('writes number literals and database JSON verbatim', () => {
    expect(
      stringifyJson({
        a: new RawNumber('12345678901234567890.5'),
        b: new RawJson('{"x":1}'),
        c: undefined,
        d: [null],
      }),
    ).toBe('{"a":12345678901234567890.5,"b":{"x":1},"d":[null]}');
  });
});
