import type { Session } from '../auth/session.ts';
import type { OperationDefinitionNode } from 'graphql';
import type { Variables } from '../plan/values.ts';
import { isParameterValue, type Slot, type VariableBindings } from '../plan/variable-bindings.ts';
import { sessionValueOf, type SqlBuilder } from '../sql/builder.ts';

/*
 * The query-plan cache (issue 24, decision 050). Hasura keeps a plan per role, operation name
 * and query text so that a repeated query skips parsing, validation and planning
 * (Hasura.GraphQL.Execute.Plan, `PlanId`; HASURA_GRAPHQL_QUERY_PLAN_CACHE_SIZE in v1). Here a
 * query's compiled statement is kept with how to bind each parameter for the next request:
 * - from a variable: re-run the checks planning made on its value (plan/variable-bindings.ts),
 *   then the compiler's conversion of the literal;
 * - from the session: read the variable again (a missing one fails as it did when compiled);
 * - a constant: as it is.
 * A variable that shaped the plan (a limit, `_is_null`, a `where` object, ...) is part of the
 * key by its value, so a different value plans again. Only queries whose every root field is
 * answered by the one statement are kept (no actions, no introspection), mutations never.
 *
 * Bounds: MAX_KEYS keys, least recently used forgotten first; at most MAX_PER_KEY statements
 * per key (one per combination of plan-shaping values seen); query texts over MAX_TEXT and
 * keys over MAX_KEY are never kept.
 */

const MAX_KEYS = 1000;
const MAX_PER_KEY = 4;
const MAX_TEXT = 16_384;
const MAX_KEY = 20_000;

type TemplateParam =
  | { kind: 'constant'; value: unknown }
  | { kind: 'slot'; slot: number; toParam: (literal: unknown) => unknown }
  | { kind: 'session'; name: string }
  | { kind: 'session-json' };

export interface QueryTemplate {
  sql: string;
  slots: Slot[];
  params: TemplateParam[];
  /** Variables that were candidates for parameters but shaped the plan: their JSON values. */
  pinned: Array<[string, string]>;
  /** The session variables (JSON) when one of them shaped the SQL text. */
  session: string | undefined;
}

/** Everything a kept statement depends on besides variables that are parameters. */
export interface QueryKeyParts {
  query: string;
  operationName: string | null | undefined;
  operation: OperationDefinitionNode;
  role: string;
  backendOnly: boolean;
  variables: Variables;
}

const json = (value: unknown) => (value === undefined ? 'u' : JSON.stringify(value));

/**
 * The key: role, the backend-only switch, operation name and text, and per declared variable
 * either the kind of a value that may be a parameter (`s`, `n`, `b`, `a` for a list) or, for
 * any other value, the value itself. Undefined when the request is too large to keep.
 */
export function queryKey(parts: QueryKeyParts): string | undefined {
  if (parts.query.length > MAX_TEXT) return undefined;
  let key = `${parts.role}\u0000${parts.backendOnly ? 1 : 0}\u0000${parts.operationName ?? ''}\u0000${parts.query}`;
  for (const definition of parts.operation.variableDefinitions ?? []) {
    const value = parts.variables[definition.variable.name.value];
    key += '\u0000';
    if (isParameterValue(value)) key += Array.isArray(value) ? 'a' : (typeof value)[0]!;
    else key += `=${json(value)}`;
    if (key.length > MAX_KEY) return undefined;
  }
  return key;
}

function sameJson(left: unknown, right: unknown): boolean {
  return json(left) === json(right);
}

/**
 * The template for a query compiled by `builder`, or undefined when it cannot be re-bound
 * (its parameters do not come out the same when bound again to this very request).
 */
export function templateOf(
  sql: string,
  builder: SqlBuilder,
  bindings: VariableBindings,
  operation: OperationDefinitionNode,
  variables: Variables,
  session: Session,
): QueryTemplate | undefined {
  const params: TemplateParam[] = builder.params.map(
    (value, i) => builder.sources[i] ?? { kind: 'constant', value },
  );
  const parameters = new Set<string>();
  const pinned: Array<[string, string]> = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const value = variables[name];
    if (!isParameterValue(value) || bindings.isUnused(name)) continue;
    // A constant equal to the value may be the value compiled without its source: pin it.
    const suspicious = params.some(
      (param) =>
        param.kind === 'constant' &&
        (sameJson(param.value, value) || sameJson(param.value, String(value))),
    );
    if (bindings.isParameter(name) && !suspicious) parameters.add(name);
    else pinned.push([name, json(value)]);
  }
  const template: QueryTemplate = {
    sql,
    // Slots of pinned variables are bound too: their value is the pinned one.
    slots: bindings.slots,
    params,
    pinned,
    session: builder.sessionShapedText ? JSON.stringify(session.variables) : undefined,
  };
  const rebound = bindTemplate(template, variables, session);
  if (!rebound.every((value, i) => sameJson(value, builder.params[i]))) return undefined;
  return template;
}

/** The parameters of a kept statement for a request; throws what planning would have. */
export function bindTemplate(
  template: QueryTemplate,
  variables: Variables,
  session: Session,
): unknown[] {
  // In planning order, so the first failing check is the one planning would have reported.
  const literals = template.slots.map((slot) => slot.coerce(variables[slot.name]));
  return template.params.map((param) => {
    switch (param.kind) {
      case 'constant':
        return param.value;
      case 'slot':
        return param.toParam(literals[param.slot]);
      case 'session':
        return sessionValueOf(session, param.name);
      case 'session-json':
        return JSON.stringify(session.variables);
    }
  });
}

function fits(template: QueryTemplate, variables: Variables, session: Session): boolean {
  if (template.session !== undefined && template.session !== JSON.stringify(session.variables))
    return false;
  return template.pinned.every(([name, value]) => json(variables[name]) === value);
}

export interface QueryCache {
  /** The kept statement for the key that fits these values, if any. */
  find(key: string, variables: Variables, session: Session): QueryTemplate | undefined;
  keep(key: string, template: QueryTemplate): void;
  /** How many statements are kept (for tests). */
  readonly size: number;
}

export function createQueryCache(): QueryCache {
  /** Map order is recency: the first key is the one to forget. */
  const entries = new Map<string, QueryTemplate[]>();
  let size = 0;
  return {
    find(key, variables, session) {
      const templates = entries.get(key);
      if (templates === undefined) return undefined;
      entries.delete(key);
      entries.set(key, templates);
      return templates.find((template) => fits(template, variables, session));
    },
    keep(key, template) {
      const templates = entries.get(key) ?? [];
      if (templates.length >= MAX_PER_KEY) return;
      templates.push(template);
      size += 1;
      entries.delete(key);
      entries.set(key, templates);
      if (entries.size > MAX_KEYS) {
        const oldest = entries.keys().next().value!;
        size -= entries.get(oldest)!.length;
        entries.delete(oldest);
      }
    },
    get size() {
      return size;
    },
  };
}
