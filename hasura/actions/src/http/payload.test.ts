import { describe, expect, it } from 'vitest';

import { ActionFailure } from './errors.ts';
import { nulCharacterPath, parsePayload } from './payload.ts';

const payload = (input: unknown) =>
  JSON.stringify({
    action: { name: 'submitSupportRequest' },
    input,
    session_variables: { 'x-hasura-role': 'anonymous' },
  });

describe('action payloads', () => {
  it('keeps numbers as their exact digits', () => {
    const body = payload({ amount: 1 }).replace(
      '"amount":1',
      '"amount":0.1000000000000000055511151231257827',
    );
    expect(parsePayload(body).input).toEqual({ amount: '0.1000000000000000055511151231257827' });
  });

  it('refuses text holding U+0000 as an input error naming the field (issue 11)', () => {
    let error: unknown;
    try {
      parsePayload(payload({ input: { email: 'a@b.cd', message: 'hi\u0000there' } }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ActionFailure);
    expect((error as ActionFailure).toJSON()).toEqual({
      message: 'input.message: the text may not contain the NUL character (U+0000).',
      extensions: { code: 'invalid-input', field: 'message' },
    });
    expect(() => parsePayload(payload({ value: '\u0000' }))).toThrow(/value: the text/);
    expect(() => parsePayload(payload({ list: ['a', 'b\u0000'] }))).toThrow(/list\.1: the text/);
  });

  it('finds U+0000 however deep, without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 20_000; i += 1) deep = [deep];
    expect(nulCharacterPath(deep)).toHaveLength(20_000);
    expect(nulCharacterPath({ a: ['b', { c: 'd' }], e: null, f: 1 })).toBeUndefined();
    // Other control characters are text like any other.
    expect(nulCharacterPath({ a: '\u0001\u001f\u007f\u202e' })).toBeUndefined();
  });
});
