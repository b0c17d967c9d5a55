import type { DocumentNode, OperationDefinitionNode } from 'graphql';

import type { Session } from '../auth/session.ts';
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
 * Entries hang off the parsed document (plan/document.ts keeps one frozen document per text),
 * so a lookup never hashes the query text again. Bounds: MAX_STATEMENTS statements in all, the
 * least recently used document's forgotten first; at most MAX_KEYS_PER_DOCUMENT keys per
 * document and MAX_PER_KEY statements per key (one per combination of plan-shaping values
 * seen); query texts over MAX_TEXT (never kept by the document cache either) and keys over
 * MAX_KEY are never kept.
 */

const MAX_STATEMENTS = 2000;
const MAX_KEYS_PER_DOCUMENT = 16;
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

/** Everything a kept statement depends on besides the document and parameter variables. */
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
 * The key within a document: role, the backend-only switch, operation name, and per declared
 * variable either the kind of a value that may be a parameter (`s`, `n`, `b`, `a` for a list)
 * or, for any other value, the value itself. Undefined when the request is too large to keep.
 */
export function queryKey(parts: QueryKeyParts): string | undefined {
  if (parts.query.length > MAX_TEXT) return undefined;
  let key = `${parts.role}\u0000${parts.backendOnly ? 1 : 0}\u0000${parts.operationName ?? ''}`;
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
    if (!bindings.isParameter(name) || suspicious) pinned.push([name, json(value)]);
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
  /** The kept statement for the document and key that fits these values, if any. */
  find(
    document: DocumentNode,
    key: string,
    variables: Variables,
    session: Session,
  ): QueryTemplate | undefined;
  keep(document: DocumentNode, key: string, template: QueryTemplate): void;
  /** How many statements are kept (for tests). */
  readonly size: number;
}

export function createQueryCache(): QueryCache {
  /** Per document, its keys' statements. Map order is recency: the first is forgotten first. */
  const documents = new Map<DocumentNode, Map<string, QueryTemplate[]>>();
  let size = 0;
  const count = (keys: Map<string, QueryTemplate[]>) => {
    let total = 0;
    for (const templates of keys.values()) total += templates.length;
    return total;
  };
  return {
    find(document, key, variables, session) {
      const keys = documents.get(document);
      if (keys === undefined) return undefined;
      if (documents.size > 1) {
        documents.delete(document);
        documents.set(document, keys);
      }
      return keys.get(key)?.find((template) => fits(template, variables, session));
    },
    keep(document, key, template) {
      let keys = documents.get(document);
      if (keys === undefined) {
        keys = new Map();
        documents.set(document, keys);
      }
      let templates = keys.get(key);
      if (templates === undefined) {
        if (keys.size >= MAX_KEYS_PER_DOCUMENT) return;
        templates = [];
        keys.set(key, templates);
      }
      if (templates.length >= MAX_PER_KEY) return;
      templates.push(template);
      size += 1;
      for (const [oldest, oldestKeys] of documents) {
        if (size <= MAX_STATEMENTS || oldest === document) break;
        size -= count(oldestKeys);
        documents.delete(oldest);
      }
    },
    get size() {
      return size;
    },
  };
}
