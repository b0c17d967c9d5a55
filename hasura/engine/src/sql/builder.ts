import type { Session } from '../auth/session.ts';
import type { ColumnInfo } from '../catalog/model.ts';
import { HasuraError } from '../errors.ts';
import { isJsonType } from '../schema/scalars.ts';

/** A double-quoted SQL identifier. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`;
/** A single-quoted SQL string literal, for JSON keys that come from validated GraphQL names. */
export const stringLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Where a parameter's value came from, for re-binding a kept statement to another request
 * (execute/query-cache.ts): a literal made from a variable (its planning slot, then how the
 * compiler turned the literal into the parameter), a session variable, or the whole session.
 * A parameter without a source is a constant of the statement.
 */
export type ParamSource =
  | { kind: 'slot'; slot: number; toParam: (literal: unknown) => unknown }
  | { kind: 'session'; name: string }
  | { kind: 'session-json' };

/**
 * Collects the parameters of one statement and hands out table aliases. Every value from a
 * request or a session goes in as a parameter ($n), never into the SQL text.
 */
export class SqlBuilder {
  readonly params: unknown[] = [];
  /** Each parameter's source, where it has one (same indexes as `params`). */
  readonly sources: Array<ParamSource | undefined> = [];
  /** Set when a session variable's value shaped the SQL text (not only a parameter). */
  sessionShapedText = false;
  private aliases = 0;

  /**
   * @param renderParam how parameter n (1-based) appears in the SQL; by default `$n::cast`.
   *   Multiplexed live queries render it as a field of each subscriber's variables row, so
   *   subscribers whose plans compile to the same text share one statement.
   */
  constructor(
    private readonly session: Session,
    readonly stringifyNumericTypes: boolean,
    private readonly renderParam?: (index: number, cast: string | undefined) => string,
  ) {}

  /** `$n` for a value, cast to a SQL type when given. */
  param(value: unknown, cast?: string, source?: ParamSource): string {
    this.params.push(value);
    this.sources.push(source);
    const index = this.params.length;
    if (this.renderParam) return this.renderParam(index, cast);
    return cast ? `$${index}::${cast}` : `$${index}`;
  }

  /** A session variable's value as a parameter. */
  sessionParam(name: string, cast?: string): string {
    return this.param(sessionValueOf(this.session, name), cast, { kind: 'session', name });
  }

  /** Every session variable, as one JSON parameter (Hasura's `hasura_session` argument). */
  sessionJsonParam(): string {
    return this.param(JSON.stringify(this.session.variables), 'json', { kind: 'session-json' });
  }

  /** A fresh table alias (`_1`, `_2`, ...). */
  alias(): string {
    this.aliases += 1;
    return `"_${this.aliases}"`;
  }

  /** A session variable's value that decides the SQL text itself (not a parameter). */
  sessionValue(name: string): string {
    this.sessionShapedText = true;
    return sessionValueOf(this.session, name);
  }
}

/** The value of a session variable, or Hasura's error when the request did not carry it. */
export function sessionValueOf(session: Session, name: string): string {
  const value = session.variables[name.toLowerCase()];
  if (value === undefined)
    throw new HasuraError('not-found', `missing session variable: "${name.toLowerCase()}"`, '$');
  return value;
}

/** How a metadata literal goes to Postgres as a parameter for a column. */
export function literalParam(value: unknown, column: ColumnInfo): unknown {
  if (value === null || value === undefined) return null;
  if (isJsonType(column.typeName)) return typeof value === 'string' ? value : JSON.stringify(value);
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}
