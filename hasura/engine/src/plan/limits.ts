import { Kind, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

import { HasuraError } from '../errors.ts';

export interface OperationLimits {
  /** Deepest selection allowed (the root fields are depth 1). */
  maxDepth: number;
  /** Most fields one operation may select, fragments expanded (alias and fragment bombs). */
  maxNodes: number;
}

/** Generous for any screen of the product, small enough that no request can make the engine work without bound. */
export const DEFAULT_LIMITS: OperationLimits = { maxDepth: 15, maxNodes: 2000 };

/**
 * Refuses an operation that is nested too deep or selects too many fields, before any of it
 * is planned. Fragments are expanded where they are used; a cycle stops the walk here and is
 * reported by the planner with Hasura's own message.
 */
export function checkOperationLimits(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  limits: OperationLimits,
): void {
  let nodes = 0;
  const walk = (set: SelectionSetNode, depth: number, stack: string[]) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        nodes += 1;
        if (nodes > limits.maxNodes) {
          throw new HasuraError(
            'validation-failed',
            `the operation selects more than ${limits.maxNodes} fields`,
            '$',
          );
        }
        if (selection.selectionSet) {
          if (depth + 1 > limits.maxDepth) {
            throw new HasuraError(
              'validation-failed',
              `the operation is nested deeper than ${limits.maxDepth} levels`,
              '$',
            );
          }
          walk(selection.selectionSet, depth + 1, stack);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, depth, stack);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (fragment && !stack.includes(name)) walk(fragment.selectionSet, depth, [...stack, name]);
      }
    }
  };
  walk(selectionSet, 1, []);
}
