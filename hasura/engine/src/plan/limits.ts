import {
  Kind,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

import { HasuraError } from '../errors.ts';

/*
 * Bounds on what one request may ask of the engine (issue 11, hostile input). Each has an
 * environment variable (env.ts) and a default generous for every screen of the product:
 *
 * - ENGINE_MAX_QUERY_DEPTH (15): nesting of the selection (relationships within relationships);
 * - ENGINE_MAX_QUERY_FIELDS (2000): fields one operation selects once fragments are expanded
 *   (alias bombs, fragment bombs);
 * - ENGINE_MAX_INPUT_DEPTH (32): nesting of objects and lists within one argument, literal or
 *   variable (`where` through relationships, `_not`/`_and`/`_or` chains, jsonb values). Deeper
 *   input overflowed the planner's stack, Postgres' (`stack depth limit exceeded`, at a few
 *   hundred levels on PGlite) or made its planner run for minutes (relationships 40 deep);
 * - ENGINE_MAX_BATCH_SIZE (20): operations in one batched HTTP request (a megabyte of `[{...}]`
 *   was 20,000 queries run one after the other: the fields limit, per operation, did not see it);
 * - ENGINE_MAX_PATTERN_LENGTH (128): characters of a `_regex`/`_iregex`/`_similar` pattern (and
 *   their negations). PostgreSQL's matching time grows steeply with the pattern: 2,000
 *   characters (`a*` repeated) took a minute on one 5,000-character row, 30,000 hung PGlite;
 *   at 128 the worst measured was 14 ms. `_like`/`_ilike` are not regular expressions and are
 *   not bounded;
 * - ENGINE_MAX_ESTIMATED_ROWS (100,000): rows an operation may make the database build,
 *   estimated from its plan (plan/cost.ts: each list multiplies what it holds by its `limit`,
 *   or by 100 when nothing bounds it). Depth and fields do not see fan-out: five levels of
 *   relationships from `exchange_directions`, one field, were 20 MB of JSON; seven ran for
 *   minutes and exhausted PGlite's memory. A client bounds its lists with `limit`;
 * - ENGINE_MAX_WS_OPERATIONS (100): operations at once on one WebSocket (live subscriptions and
 *   queries in flight). 20,000 subscriptions from one anonymous connection kept every other
 *   request waiting about 5 s; a page of the product holds a few.
 *
 * Over a limit, the request is refused before any of it runs, with a `validation-failed`
 * (`bad-request` for the batch) error naming the limit; over the WebSocket one, that
 * subscription gets the error and the connection stays open.
 */

export interface OperationLimits {
  /** Deepest selection allowed (the root fields are depth 1). */
  maxDepth: number;
  /** Most fields one operation may select, fragments expanded (alias and fragment bombs). */
  maxNodes: number;
  /** Deepest nesting of objects and lists in one argument value, literal or variable. */
  maxInputDepth: number;
  /** Longest `_regex`/`_similar` pattern (and their variants). */
  maxPatternLength: number;
  /** Most rows an operation may make the database build, estimated from its plan (plan/cost.ts). */
  maxEstimatedRows: number;
}

/** What the engine bounds: one operation, and one batched request. */
export interface EngineLimits extends OperationLimits {
  /** Most operations in one batched HTTP request. */
  maxBatchSize: number;
  /** Most operations (live subscriptions, queries in flight) at once on one WebSocket. */
  maxOperationsPerConnection: number;
}

/** Generous for any screen of the product, small enough that no request can make the engine work without bound. */
export const DEFAULT_LIMITS: EngineLimits = {
  maxDepth: 15,
  maxNodes: 2000,
  maxInputDepth: 32,
  maxPatternLength: 128,
  maxEstimatedRows: 100_000,
  maxBatchSize: 20,
  maxOperationsPerConnection: 100,
};

const inputTooDeep = (limit: number, path: string) =>
  new HasuraError(
    'validation-failed',
    `an argument or variable is nested deeper than ${limit} levels`,
    path,
  );

/** Whether a literal nests objects and lists deeper than `limit` (walks at most that deep). */
function literalTooDeep(node: ValueNode, limit: number, depth = 0): boolean {
  if (node.kind !== Kind.LIST && node.kind !== Kind.OBJECT) return false;
  if (depth + 1 > limit) return true;
  if (node.kind === Kind.LIST)
    return node.values.some((item) => literalTooDeep(item, limit, depth + 1));
  return node.fields.some((field) => literalTooDeep(field.value, limit, depth + 1));
}

/** Whether a JSON value nests objects and arrays deeper than `limit` (walks at most that deep). */
function jsonTooDeep(value: unknown, limit: number, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth + 1 > limit) return true;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.some((item) => jsonTooDeep(item, limit, depth + 1));
}

/** Operations of kept (frozen) documents that passed checkOperationLimits, per limits. */
const withinLimits = new WeakMap<OperationLimits, WeakSet<OperationDefinitionNode>>();

/**
 * checkOperationLimits once per operation of a kept document: the parse cache (document.ts)
 * freezes the documents it keeps, so an operation that passed cannot have changed since.
 */
export function checkOperationLimitsOnce(
  operation: OperationDefinitionNode,
  fragments: Map<string, FragmentDefinitionNode>,
  limits: OperationLimits,
): void {
  const passed = withinLimits.get(limits);
  if (passed?.has(operation)) return;
  checkOperationLimits(operation.selectionSet, fragments, limits);
  if (!Object.isFrozen(operation)) return;
  if (passed) passed.add(operation);
  else withinLimits.set(limits, new WeakSet([operation]));
}

/** Refuses a variable value nested deeper than the limit (only the variables the operation declares). */
export function checkVariableDepth(
  variables: Record<string, unknown>,
  limits: OperationLimits,
): void {
  for (const [name, value] of Object.entries(variables)) {
    if (jsonTooDeep(value, limits.maxInputDepth))
      throw inputTooDeep(limits.maxInputDepth, `$.variables.${name}`);
  }
}

/**
 * Refuses an operation that is nested too deep, selects too many fields or has an argument
 * literal nested too deep, before any of it is planned. Fragments are expanded where they are
 * used; a cycle stops the walk here and is reported by the planner with Hasura's own message.
 */
export function checkOperationLimits(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  limits: OperationLimits,
): void {
  let nodes = 0;
  const walk = (set: SelectionSetNode, depth: number, stack: string[]) => {
    for (const selection of set.selections) {
      for (const directive of selection.directives ?? []) {
        for (const argument of directive.arguments ?? []) {
          if (literalTooDeep(argument.value, limits.maxInputDepth))
            throw inputTooDeep(limits.maxInputDepth, '$');
        }
      }
      if (selection.kind === Kind.FIELD) {
        nodes += 1;
        if (nodes > limits.maxNodes) {
          throw new HasuraError(
            'validation-failed',
            `the operation selects more than ${limits.maxNodes} fields`,
            '$',
          );
        }
        for (const argument of selection.arguments ?? []) {
          if (literalTooDeep(argument.value, limits.maxInputDepth))
            throw inputTooDeep(limits.maxInputDepth, `$.selectionSet.${selection.name.value}.args`);
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
