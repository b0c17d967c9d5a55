import { describe, expect, it } from 'vitest';

import { paramJson, postgresArrayLiteral, renderRowParam, variablesRow } from './params.ts';

describe('live-query variables rows', () => {
  it('encodes scalars as the text Postgres parses, nulls as JSON null', () => {
    expect(
      JSON.parse(variablesRow(['a"b', 1, 2.5, true, 10n, null, undefined, '{"k":1}'])),
    ).toEqual(['a"b', '1', '2.5', 'true', '10', null, null, '{"k":1}']);
  });

  it('turns arrays into Postgres array literals, quoting and escaping every element', () => {
    expect(postgresArrayLiteral(['1', '2'])).toBe('{"1","2"}');
    expect(postgresArrayLiteral(['x y', 'a"b', 'c\\d', null])).toBe(
      '{"x y","a\\"b","c\\\\d",NULL}',
    );
    expect(
      postgresArrayLiteral([
        ['1', '2'],
        ['3', '4'],
      ]),
    ).toBe('{{"1","2"},{"3","4"}}');
    expect(postgresArrayLiteral([])).toBe('{}');
    expect(paramJson(['a', null])).toBe('{"a",NULL}');
  });

  it('encodes dates and bytes the way node-postgres sends them', () => {
    expect(paramJson(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))).toBe('2024-01-02T03:04:05.000Z');
    expect(paramJson(Buffer.from([0xde, 0xad]))).toBe('\\xdead');
  });

  it('renders parameter n as element n-1 of the subscriber row, cast when asked', () => {
    expect(renderRowParam(1, 'integer')).toBe('(("_lq_s"."vars"->>0)::integer)');
    expect(renderRowParam(3, undefined)).toBe('("_lq_s"."vars"->>2)');
  });
});
