import { describe, expect, it } from 'vitest';

import { HasuraError } from '../errors.ts';

import { parseDocument } from './document.ts';

describe('parseDocument', () => {
  it('gives every request of one text the same document, frozen so none can change it', () => {
    const text = 'query Kept { item { id } }';
    const first = parseDocument(text);
    expect(parseDocument(text)).toBe(first);
    expect(Object.isFrozen(first.definitions[0])).toBe(true);
    expect(() => {
      (first.definitions as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it('answers a syntax error as Hasura does, every time', () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = (() => {
        try {
          parseDocument('query {');
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(HasuraError.is(error)).toBe(true);
      expect((error as HasuraError).code).toBe('validation-failed');
    }
  });

  it('parses a long text afresh each time instead of keeping it', () => {
    const text = `query Long { ${Array.from({ length: 3000 }, (_, n) => `a${n}: item { id }`).join(' ')} }`;
    expect(parseDocument(text)).not.toBe(parseDocument(text));
  });
});
