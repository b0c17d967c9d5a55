import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';

import { HasuraError } from '../errors.ts';

import {
  checkOperationLimits,
  checkOperationLimitsOnce,
  checkVariableDepth,
  DEFAULT_LIMITS,
} from './limits.ts';

function check(
  query: string,
  limits = {
    maxDepth: 4,
    maxNodes: 20,
    maxInputDepth: 6,
    maxPatternLength: 10,
    maxEstimatedRows: 1000,
  },
) {
  const document = parse(query);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  checkOperationLimits(operation.selectionSet, fragments, limits);
}

describe('operation limits', () => {
  it('lets ordinary screens through', () => {
    expect(() =>
      check('{ transactions { id user { email } status_history { to_status } } }'),
    ).not.toThrow();
  });

  it('refuses nesting deeper than the limit', () => {
    expect(() => check('{ a { b { c { d { e } } } } }')).toThrow(/nested deeper than 4 levels/);
  });

  it('counts fields inside fragments where they are spread', () => {
    const bomb = `{ ${Array.from({ length: 6 }, (_, i) => `f${i}: t { ...F }`).join(' ')} } fragment F on t { a b c }`;
    expect(() => check(bomb)).toThrow(/more than 20 fields/);
  });

  it('refuses an alias bomb', () => {
    const query = `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: currencies { code }`).join(' ')} }`;
    expect(() =>
      check(query, {
        maxDepth: 10,
        maxNodes: 60,
        maxInputDepth: 6,
        maxPatternLength: 10,
        maxEstimatedRows: 1000,
      }),
    ).toThrow(HasuraError);
  });

  it('leaves fragment cycles to the planner instead of looping', () => {
    expect(() =>
      check('{ t { ...A } } fragment A on t { x { ...B } } fragment B on x { t { ...A } }', {
        maxDepth: 50,
        maxNodes: 100,
        maxInputDepth: 6,
        maxPatternLength: 10,
        maxEstimatedRows: 1000,
      }),
    ).not.toThrow();
  });

  it('refuses argument literals nested deeper than the limit, in fields and directives', () => {
    const where = (depth: number) =>
      `${'{_not: '.repeat(depth - 1)}{code: {_eq: "x"}}${'}'.repeat(depth - 1)}`;
    // `{code: {_eq: "x"}}` is two levels: a chain of 4 `_not` makes 6.
    expect(() => check(`{ currencies(where: ${where(5)}) { code } }`)).not.toThrow();
    expect(() => check(`{ currencies(where: ${where(6)}) { code } }`)).toThrow(
      /nested deeper than 6 levels/,
    );
    expect(() => check(`{ a(l: [[[[[[[1]]]]]]]) { b } }`)).toThrow(/nested deeper than 6 levels/);
    expect(() => check(`{ ...F } fragment F on t { a(l: [[[[[[[1]]]]]]]) }`)).toThrow(HasuraError);
  });

  it('refuses variables nested deeper than the limit, without walking all of them', () => {
    const limits = {
      maxDepth: 4,
      maxNodes: 20,
      maxInputDepth: 6,
      maxPatternLength: 10,
      maxEstimatedRows: 1000,
    };
    expect(() =>
      checkVariableDepth({ w: { _and: [{ _not: { a: { _eq: 1 } } }] } }, limits),
    ).not.toThrow();
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i += 1) deep = { _not: deep };
    expect(() => checkVariableDepth({ w: deep }, limits)).toThrow(
      expect.objectContaining({ path: '$.variables.w', code: 'validation-failed' }),
    );
    expect(() => checkVariableDepth({ s: 'x'.repeat(10), n: 5, z: null }, limits)).not.toThrow();
  });

  it('has defaults that fit the product and stop the hostile input it was fuzzed with', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxDepth: 15,
      maxNodes: 2000,
      maxInputDepth: 32,
      maxPatternLength: 128,
      maxEstimatedRows: 100_000,
      maxBatchSize: 20,
      maxOperationsPerConnection: 100,
    });
  });
});

describe('checkOperationLimitsOnce', () => {
  const operationOf = (text: string) =>
    parse(text).definitions[0] as unknown as OperationDefinitionNode;
  const limits = { ...DEFAULT_LIMITS, maxDepth: 2 };

  it('checks each kept (frozen) operation once per set of limits, and others every time', () => {
    const kept = Object.freeze(operationOf('{ a { b } }'));
    checkOperationLimitsOnce(kept, new Map(), limits);
    // Once passed under `limits`, it is not walked again; other limits check it afresh.
    checkOperationLimitsOnce(kept, new Map(), limits);
    expect(() => {
      checkOperationLimitsOnce(kept, new Map(), { ...limits, maxDepth: 1 });
    }).toThrow(/nested deeper than 1 level/);
    const deep = Object.freeze(operationOf('{ a { b { c } } }'));
    for (let attempt = 0; attempt < 2; attempt += 1)
      expect(() => {
        checkOperationLimitsOnce(deep, new Map(), limits);
      }).toThrow(/nested deeper than 2 levels/);
  });
});
