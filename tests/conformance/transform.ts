import { randomUUID } from 'node:crypto';

import type { GraphQLBody } from './corpus.ts';

/*
 * Pure rewrites the corpus asks of a runner: `$now±N` in JWT claims, the subscription
 * transport's query rewrite, and the `<...>` placeholders of the authored cases.
 */

const NOW_PATTERN = /^\$now(?:\s*([+-])\s*(\d+))?$/;

/** Replaces every string `$now`, `$now+N`, `$now-N` (whole value) by UNIX seconds ± N. */
export function substituteNow<T>(value: T, nowSeconds: number): T {
  if (typeof value === 'string') {
    const match = NOW_PATTERN.exec(value);
    if (!match) return value;
    const offset = match[2] ? Number(match[2]) * (match[1] === '-' ? -1 : 1) : 0;
    return (nowSeconds + offset) as T;
  }
  if (Array.isArray(value))
    return value.map((item: unknown) => substituteNow(item, nowSeconds)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteNow(item, nowSeconds)]),
    ) as T;
  }
  return value;
}

/**
 * The `subscription` transport (pytest `check_query_f`): every `query {` becomes
 * `subscription @_multiple_top_level_fields {`, Hasura's directive for several root fields.
 */
export function toSubscriptionQuery(query: string): string {
  return query.replaceAll('query {', 'subscription @_multiple_top_level_fields {');
}

export function toSubscriptionBody(body: GraphQLBody): GraphQLBody {
  return { ...body, query: toSubscriptionQuery(body.query) };
}

/** What the `<...>` placeholders of a case stand for in this run. */
export interface PlaceholderValues {
  /** The configured admin secret, if any. */
  adminSecret?: string | undefined;
  /** A value that is certainly not the admin secret. */
  wrongSecret: string;
  /** The minted JWT, for `<token>` inside strings. */
  token?: string | undefined;
  /** Source of `<uuid>` values (random by default). */
  uuid?: () => string;
}

/** Marks a value whose placeholder has nothing to stand for: its key is dropped. */
const DROP = Symbol('drop');

export interface PlaceholderState {
  lastUuid?: string;
}

function resolveString(
  text: string,
  values: PlaceholderValues,
  state: PlaceholderState,
): string | typeof DROP {
  const trimmed = text.trim();
  if (/^<random wrong value>$/i.test(trimmed)) return values.wrongSecret;
  if (/^<[^<>]*secret[^<>]*>$/i.test(trimmed)) return values.adminSecret ?? DROP;
  if (trimmed === '<uuid>') {
    state.lastUuid = (values.uuid ?? randomUUID)();
    return state.lastUuid;
  }
  if (trimmed === '<same uuid>') {
    state.lastUuid ??= (values.uuid ?? randomUUID)();
    return state.lastUuid;
  }
  if (text.includes('<token>') && values.token !== undefined) {
    return text.replaceAll('<token>', values.token);
  }
  return text;
}

function resolveValue(value: unknown, values: PlaceholderValues, state: PlaceholderState): unknown {
  if (typeof value === 'string') return resolveString(value, values, state);
  if (Array.isArray(value)) {
    return value
      .map((item: unknown) => resolveValue(item, values, state))
      .filter((item) => item !== DROP);
  }
  if (typeof value === 'object' && value !== null) {
    const entries: [string, unknown][] = [];
    for (const [key, item] of Object.entries(value)) {
      const resolved = resolveValue(item, values, state);
      if (resolved !== DROP) entries.push([key, resolved]);
    }
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * Resolves the placeholders in a value: `<configured secret>` and its variants (the key is
 * dropped when no secret is configured), `<random wrong value>`, `<uuid>` / `<same uuid>`
 * (`state` keeps the last uuid across calls), `<token>` inside strings.
 */
export function resolvePlaceholders<T>(
  value: T,
  values: PlaceholderValues,
  state: PlaceholderState = {},
): T {
  const resolved = resolveValue(value, values, state);
  return (resolved === DROP ? undefined : resolved) as T;
}

/** Header values as the wire carries them: strings (YAML may give numbers). */
export function stringHeaders(
  headers: Record<string, unknown> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue;
    result[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return result;
}

export function hasHeader(headers: Record<string, string>, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === wanted);
}

/**
 * The headers a request goes out with: the case's own (placeholders resolved), plus
 * `X-Hasura-Admin-Secret` when the runner is to send it and the case did not set one.
 */
export function requestHeaders(
  caseHeaders: Record<string, unknown> | undefined,
  options: { sendAdminSecret: boolean; values: PlaceholderValues },
): Record<string, string> {
  const headers = stringHeaders(resolvePlaceholders(caseHeaders ?? {}, options.values));
  const secret = options.values.adminSecret;
  if (
    options.sendAdminSecret &&
    secret !== undefined &&
    !hasHeader(headers, 'x-hasura-admin-secret')
  ) {
    headers['X-Hasura-Admin-Secret'] = secret;
  }
  return headers;
}
