import {
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

import type { GraphQLBody } from './corpus.ts';

/*
 * The comparison rules of the corpus README (pytest's validate.py), as pure functions:
 *
 * - arrays are order-sensitive;
 * - objects compare key sets and values; inside `data`, keys of objects that answer a
 *   selection set must also come in the expected (selection-set) order, while leaf values
 *   (json/jsonb, scalars) compare without key order;
 * - `errors` entries compare without key order; `message` (and the debugging-only
 *   `extensions.internal`) differences are "drift", reported apart and not failing a case,
 *   while `extensions.code`, `extensions.path` and every other key must match.
 */

export interface Comparison {
  ok: boolean;
  /** The first difference, as `path: expected X, got Y`. */
  diff?: string;
  /** Differences tolerated by policy: error messages, `extensions.internal`. */
  drift: string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function show(value: unknown, max = 80): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function childPath(parent: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${parent}.${key}` : `${parent}[${show(key)}]`;
}

/** The first place two JSON values differ (object key order ignored), or null when equal. */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): string | null {
  if (kindOf(expected) !== kindOf(actual)) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      const difference = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} items, got ${actual.length} (${show(actual, 60)})`;
    }
    return null;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    for (const key of Object.keys(expected)) {
      if (!(key in actual))
        return `${childPath(path, key)}: missing (expected ${show(expected[key])})`;
    }
    for (const key of Object.keys(actual)) {
      if (!(key in expected))
        return `${childPath(path, key)}: unexpected key (got ${show(actual[key])})`;
    }
    for (const key of Object.keys(expected)) {
      const difference = firstDifference(expected[key], actual[key], childPath(path, key));
      if (difference) return difference;
    }
    return null;
  }
  return Object.is(expected, actual) || expected === actual
    ? null
    : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

// ---------------------------------------------------------------------------------------------
// Selection sets: which objects in `data` answer a selection set (their key order matters).

/** Response key -> the sub-selections of the fields answering it (empty for leaf fields). */
type FieldMap = Map<string, SelectionSetNode[]>;

interface SelectionContext {
  fragments: Map<string, FragmentDefinitionNode>;
}

function collectFields(
  selectionSets: SelectionSetNode[],
  context: SelectionContext,
  into: FieldMap = new Map(),
  visiting: Set<string> = new Set(),
): FieldMap {
  for (const selectionSet of selectionSets) {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const subs = into.get(key) ?? [];
        if (selection.selectionSet) subs.push(selection.selectionSet);
        into.set(key, subs);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collectFields([selection.selectionSet], context, into, visiting);
      } else {
        const name = selection.name.value;
        const fragment = context.fragments.get(name);
        if (!fragment || visiting.has(name)) continue;
        visiting.add(name);
        collectFields([fragment.selectionSet], context, into, visiting);
        visiting.delete(name);
      }
    }
  }
  return into;
}

interface OperationSelection {
  root: SelectionSetNode;
  context: SelectionContext;
}

export function operationSelection(body: GraphQLBody | undefined): OperationSelection | null {
  if (!body || typeof body.query !== 'string') return null;
  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch {
    return null;
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
    if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation = body.operationName
    ? operations.find((candidate) => candidate.name?.value === body.operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) return null;
  return { root: operation.selectionSet, context: { fragments } };
}

function keyOrderDifference(
  expected: unknown,
  actual: unknown,
  selectionSets: SelectionSetNode[],
  context: SelectionContext,
  path: string,
): string | null {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      const difference = keyOrderDifference(
        expected[i],
        actual[i],
        selectionSets,
        context,
        `${path}[${i}]`,
      );
      if (difference) return difference;
    }
    return null;
  }
  if (!isPlainObject(expected) || !isPlainObject(actual)) return null;
  const expectedKeys = Object.keys(expected);
  const actualKeys = Object.keys(actual);
  if (expectedKeys.join('\u0000') !== actualKeys.join('\u0000')) {
    return `${path}: key order expected [${expectedKeys.join(', ')}], got [${actualKeys.join(', ')}]`;
  }
  const fields = collectFields(selectionSets, context);
  for (const key of expectedKeys) {
    const subs = fields.get(key);
    if (!subs || subs.length === 0) continue; // a leaf: json values compare without key order
    const difference = keyOrderDifference(
      expected[key],
      actual[key],
      subs,
      context,
      childPath(path, key),
    );
    if (difference) return difference;
  }
  return null;
}

/**
 * Key-order check inside `data` (objects already known equal apart from order). Objects that
 * answer a selection set must list their keys in the expected order; leaves are not checked.
 */
export function dataKeyOrderDifference(
  expectedData: unknown,
  actualData: unknown,
  body: GraphQLBody | undefined,
): string | null {
  const selection = operationSelection(body);
  if (!selection) return null;
  return keyOrderDifference(
    expectedData,
    actualData,
    [selection.root],
    selection.context,
    '$.data',
  );
}

// ---------------------------------------------------------------------------------------------
// Whole responses.

function withoutDrift(error: unknown): unknown {
  if (!isPlainObject(error)) return error;
  const { message: _message, ...rest } = error;
  if (isPlainObject(rest['extensions'])) {
    const { internal: _internal, ...extensions } = rest['extensions'];
    return { ...rest, extensions };
  }
  return rest;
}

function compareErrors(
  expected: unknown[],
  actual: unknown[],
  path: string,
): { diff: string | null; drift: string[] } {
  const drift: string[] = [];
  if (expected.length !== actual.length) {
    return {
      diff: `${path}: expected ${expected.length} errors, got ${actual.length}: ${show(actual, 160)}`,
      drift,
    };
  }
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i];
    const got = actual[i];
    const at = `${path}[${i}]`;
    const difference = firstDifference(withoutDrift(want), withoutDrift(got), at);
    if (difference) return { diff: difference, drift };
    if (!isPlainObject(want) || !isPlainObject(got)) continue;
    if ('message' in want && typeof got['message'] !== 'string') {
      return { diff: `${at}.message: missing (expected ${show(want['message'])})`, drift };
    }
    if ('message' in want && want['message'] !== got['message']) {
      drift.push(
        `${at}.message: expected ${show(want['message'], 200)}, got ${show(got['message'], 200)}`,
      );
    }
    const wantInternal = isPlainObject(want['extensions'])
      ? want['extensions']['internal']
      : undefined;
    const gotInternal = isPlainObject(got['extensions'])
      ? got['extensions']['internal']
      : undefined;
    const internalDifference = firstDifference(
      wantInternal,
      gotInternal,
      `${at}.extensions.internal`,
    );
    if (internalDifference) drift.push(internalDifference);
  }
  return { diff: null, drift };
}

function omitKey(object: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
}

function compareSingle(
  expected: unknown,
  actual: unknown,
  body: GraphQLBody | undefined,
  path: string,
): Comparison {
  if (!isPlainObject(expected) || !isPlainObject(actual)) {
    const diff = firstDifference(expected, actual, path);
    return diff ? { ok: false, diff, drift: [] } : { ok: true, drift: [] };
  }
  const drift: string[] = [];
  const expectedErrors = expected['errors'];
  const actualErrors = actual['errors'];
  if (expectedErrors === undefined && actualErrors !== undefined) {
    return {
      ok: false,
      diff: `${path}: expected no errors, got errors ${show(actualErrors, 200)}`,
      drift,
    };
  }
  if (expectedErrors !== undefined && actualErrors === undefined) {
    return {
      ok: false,
      diff: `${path}: expected errors ${show(expectedErrors, 120)}, got ${show(actual, 120)}`,
      drift,
    };
  }
  let expectedRest: Record<string, unknown> = expected;
  let actualRest: Record<string, unknown> = actual;
  if (Array.isArray(expectedErrors) && Array.isArray(actualErrors)) {
    const errors = compareErrors(expectedErrors, actualErrors, `${path}.errors`);
    if (errors.diff) return { ok: false, diff: errors.diff, drift: errors.drift };
    drift.push(...errors.drift);
    expectedRest = omitKey(expected, 'errors');
    actualRest = omitKey(actual, 'errors');
  }
  const difference = firstDifference(expectedRest, actualRest, path);
  if (difference) return { ok: false, diff: difference, drift };
  if (Array.isArray(expectedErrors) !== Array.isArray(actualErrors)) {
    return {
      ok: false,
      diff: `${path}.errors: expected ${show(expectedErrors)}, got ${show(actualErrors, 160)}`,
      drift,
    };
  }
  if ('data' in expected) {
    const order = dataKeyOrderDifference(expected['data'], actual['data'], body);
    if (order) return { ok: false, diff: path === '$' ? order : order.replace(/^\$/, path), drift };
  }
  return { ok: true, drift };
}

/** Compares one GraphQL response (or a batch of them) with the expected one. */
export function compareResponse(
  expected: unknown,
  actual: unknown,
  body: GraphQLBody | GraphQLBody[] | undefined,
): Comparison {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      return {
        ok: false,
        diff: `$: expected a batched (list) response, got ${show(actual)}`,
        drift: [],
      };
    }
    if (expected.length !== actual.length) {
      return {
        ok: false,
        diff: `$: expected ${expected.length} batched responses, got ${actual.length}`,
        drift: [],
      };
    }
    const drift: string[] = [];
    for (let i = 0; i < expected.length; i++) {
      const itemBody = Array.isArray(body) ? body[i] : body;
      const result = compareSingle(expected[i], actual[i], itemBody, `$[${i}]`);
      drift.push(...result.drift);
      if (!result.ok) return { ...result, drift };
    }
    return { ok: true, drift };
  }
  return compareSingle(expected, actual, Array.isArray(body) ? undefined : body, '$');
}

/** `allowed_responses`: the first exact match wins, then the first match with only drift. */
export function compareAllowed(
  expectedList: unknown[],
  actual: unknown,
  body: GraphQLBody | GraphQLBody[] | undefined,
): Comparison {
  const results = expectedList.map((expected) => compareResponse(expected, actual, body));
  const exact = results.find((result) => result.ok && result.drift.length === 0);
  if (exact) return exact;
  const drifting = results.find((result) => result.ok);
  if (drifting) return drifting;
  const first = results[0] ?? { ok: false, diff: 'no allowed response given', drift: [] };
  return {
    ...first,
    diff: `${first.diff ?? ''} (and ${results.length - 1} other allowed responses)`,
  };
}

/** Whether every key the expectation lists equals the message's (websocket `expect` steps). */
export function subsetMismatch(expected: Record<string, unknown>, actual: unknown): string | null {
  if (!isPlainObject(actual)) return `expected ${show(expected)}, got ${show(actual)}`;
  for (const [key, value] of Object.entries(expected)) {
    const difference = firstDifference(value, actual[key], `$.${key}`);
    if (difference) return `${difference} (message ${show(actual, 160)})`;
  }
  return null;
}

export interface ExpectedEvent {
  trigger: string;
  table: { schema: string; name: string };
  op: string;
  data: unknown;
  session_variables: unknown;
  webhook_path: string;
  current_retry: number;
  headers?: Record<string, string>;
}

export interface DeliveredEvent {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) current = isPlainObject(current) ? current[key] : undefined;
  return current;
}

/**
 * An event-trigger delivery against an `expect_events` entry: path, listed headers, trigger
 * name, table, op, data, session variables and current_retry, plus the payload shape
 * (id, created_at, event, trigger) of validate.py check_ev_payload_shape.
 */
export function eventMismatch(expected: ExpectedEvent, delivery: DeliveredEvent): string | null {
  if (delivery.path !== expected.webhook_path) {
    return `webhook path: expected ${show(expected.webhook_path)}, got ${show(delivery.path)}`;
  }
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const key = Object.keys(delivery.headers).find(
      (header) => header.toLowerCase() === name.toLowerCase(),
    );
    const got = key === undefined ? undefined : delivery.headers[key];
    if (got !== value) return `header ${name}: expected ${show(value)}, got ${show(got)}`;
  }
  const body = delivery.body;
  for (const key of ['id', 'created_at', 'event', 'trigger']) {
    if (!isPlainObject(body) || !(key in body))
      return `payload: no "${key}" key (${show(body, 160)})`;
  }
  const checks: [string, unknown, unknown][] = [
    ['trigger.name', expected.trigger, at(body, 'trigger', 'name')],
    ['table', expected.table, at(body, 'table')],
    ['event.op', expected.op, at(body, 'event', 'op')],
    ['event.data', expected.data, at(body, 'event', 'data')],
    ['event.session_variables', expected.session_variables, at(body, 'event', 'session_variables')],
    [
      'delivery_info.current_retry',
      expected.current_retry,
      at(body, 'delivery_info', 'current_retry'),
    ],
  ];
  for (const [name, want, got] of checks) {
    const difference = firstDifference(want, got, `$.${name}`);
    if (difference) return difference;
  }
  return null;
}
