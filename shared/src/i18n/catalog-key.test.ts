import { describe, expect, it } from 'vitest';

import { exchangeProblemMessage } from '../forms/exchange.ts';

import { resources, type CatalogKey } from './index.ts';

/** The English text a catalog key names, or undefined. */
function englishText(key: CatalogKey): unknown {
  const [namespace, path] = key.split(':') as [keyof typeof resources.en, string];
  let node: unknown = resources.en[namespace];
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

describe('catalog keys', () => {
  it('accept the keys of the English catalogs and refuse others at the typecheck', () => {
    const known: CatalogKey = 'common:validation.required';
    // @ts-expect-error: a typo is not a key of the English catalog (the typecheck fails here
    // if the type ever accepts any string).
    const typo: CatalogKey = 'common:validation.requried';
    // @ts-expect-error: nor is a namespace that does not exist.
    const namespace: CatalogKey = 'commons:validation.required';
    expect(englishText(known)).toBe('The field is required');
    expect([typo, namespace].map(englishText)).toEqual([undefined, undefined]);
  });

  it('name a text for every problem the order action answers', () => {
    const problems = ['required', 'invalid-email', 'too-long', 'invalid-wallet-address'];
    for (const problem of [...problems, 'invalid-iban', 'not-applicable', 'must-agree', 'invalid'])
      expect(typeof englishText(exchangeProblemMessage(problem)), problem).toBe('string');
    expect(exchangeProblemMessage('no-such-problem')).toBe('exchange:create.errors.invalid');
  });
});
