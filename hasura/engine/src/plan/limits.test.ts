import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';

import { HasuraError } from '../errors.ts';

import { checkOperationLimits } from './limits.ts';

function check(query: string, limits = { maxDepth: 4, maxNodes: 20 }) {
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
    expect(() => check(query, { maxDepth: 10, maxNodes: 60 })).toThrow(HasuraError);
  });

  it('leaves fragment cycles to the planner instead of looping', () => {
    expect(() =>
      check('{ t { ...A } } fragment A on t { x { ...B } } fragment B on x { t { ...A } }', {
        maxDepth: 50,
        maxNodes: 100,
      }),
    ).not.toThrow();
  });
});
