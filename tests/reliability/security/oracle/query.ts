import fc from 'fast-check';

import type { Role } from '../../hostile/graphql-shots.ts';

/*
 * A generated operation, kept as a tree rather than text: the text (with variables or with
 * literals), the comparison of answers (which lists have a fixed order) and the report all
 * come from it. Only tables the role's schema lists are named here, except for the one
 * construct `poison` describes (refusal checks).
 */

/** An enum value (order_by direction, select_column): printed without quotes. */
export class EnumValue {
  constructor(readonly value: string) {}
  toJSON(): string {
    return this.value;
  }
}

export type ArgValue =
  null | boolean | number | string | EnumValue | ArgValue[] | { [key: string]: ArgValue };

export interface ListArgs {
  where?: ArgValue;
  order_by?: ArgValue[];
  distinct_on?: EnumValue[];
  limit?: number;
  offset?: number;
  /** Arguments no schema lists (refusal checks), printed as they are. */
  extra?: Record<string, ArgValue>;
}

export type Selection =
  | { kind: 'scalar'; name: string; args?: Record<string, ArgValue>; directive?: string }
  | { kind: 'typename' }
  /** An inline fragment on another type (refusal checks only). */
  | { kind: 'fragment'; on: string; fields: Selection[] }
  | {
      kind: 'object';
      name: string;
      alias: string;
      table: string;
      fields: Selection[];
      directive?: string;
    }
  | {
      kind: 'array';
      name: string;
      alias: string;
      table: string;
      args: ListArgs;
      /** Whether the answer's order is fixed (a total order_by); else compared as a multiset. */
      ordered: boolean;
      fields: Selection[];
    }
  | {
      kind: 'aggregate';
      name: string;
      alias: string;
      table: string;
      args: ListArgs;
      ordered: boolean;
      parts: AggregatePart[];
      nodes: Selection[] | undefined;
    };

export type AggregatePart =
  | { kind: 'count'; alias: string; columns?: EnumValue[]; distinct?: boolean }
  | { kind: 'fn'; alias: string; fn: string; columns: string[] };

export type RootSelection =
  | {
      kind: 'select';
      field: string;
      alias: string;
      table: string;
      args: ListArgs;
      ordered: boolean;
      fields: Selection[];
    }
  | {
      kind: 'aggregate';
      field: string;
      alias: string;
      table: string;
      args: ListArgs;
      ordered: boolean;
      parts: AggregatePart[];
      nodes: Selection[] | undefined;
    }
  | {
      kind: 'by_pk';
      field: string;
      alias: string;
      table: string;
      key: Record<string, ArgValue>;
      fields: Selection[];
    };

export type Transport = 'http' | 'ws';

export interface OracleQuery {
  role: Role;
  operation: 'query' | 'subscription';
  transport: Transport;
  /** Arguments written into the text rather than passed as variables. */
  inline: boolean;
  /** Selection sets written as inline fragments (`... on <type> { ... }`). */
  fragments?: boolean;
  roots: RootSelection[];
  /** The construct the role's schema does not list, when this is a refusal check. */
  poison?: string;
  /** The refusal check's operation without that construct. */
  unpoisoned?: OracleQuery;
}

function printLiteral(value: ArgValue): string {
  if (value instanceof EnumValue) return value.value;
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(printLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${key}: ${printLiteral(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

class Printer {
  readonly variables: Record<string, unknown> = {};
  readonly declarations: string[] = [];

  constructor(
    private readonly inline: boolean,
    private readonly argTypes: Map<string, string>,
    private readonly fragments = false,
  ) {}

  private wrap(typeName: string, inner: string): string {
    return this.fragments ? `{ ... on ${typeName} { ${inner} } }` : `{ ${inner} }`;
  }

  /** `name: value`, or `name: $vN` with the type the schema gives the argument. */
  arg(owner: string, field: string, name: string, value: ArgValue): string {
    const type = this.argTypes.get(`${owner}.${field}.${name}`);
    if (this.inline || !type) return `${name}: ${printLiteral(value)}`;
    const variable = `v${this.declarations.length}`;
    this.declarations.push(`$${variable}: ${type}`);
    this.variables[variable] = JSON.parse(JSON.stringify(value)) as unknown;
    return `${name}: $${variable}`;
  }

  listArgs(owner: string, field: string, args: ListArgs): string {
    const parts: string[] = [];
    if (args.where !== undefined) parts.push(this.arg(owner, field, 'where', args.where));
    if (args.order_by !== undefined) parts.push(this.arg(owner, field, 'order_by', args.order_by));
    if (args.distinct_on !== undefined)
      parts.push(this.arg(owner, field, 'distinct_on', args.distinct_on));
    if (args.limit !== undefined) parts.push(this.arg(owner, field, 'limit', args.limit));
    if (args.offset !== undefined) parts.push(this.arg(owner, field, 'offset', args.offset));
    for (const [name, value] of Object.entries(args.extra ?? {}))
      parts.push(`${name}: ${printLiteral(value)}`);
    return parts.length > 0 ? `(${parts.join(', ')})` : '';
  }

  selection(table: string, fields: Selection[]): string {
    return this.wrap(table, fields.map((field) => this.field(table, field)).join(' '));
  }

  aggregate(table: string, parts: AggregatePart[], nodes: Selection[] | undefined): string {
    const inner = parts.map((part) => {
      if (part.kind === 'count') {
        const args: string[] = [];
        if (part.columns) args.push(`columns: ${printLiteral(part.columns)}`);
        if (part.distinct !== undefined) args.push(`distinct: ${String(part.distinct)}`);
        return `${part.alias}: count${args.length > 0 ? `(${args.join(', ')})` : ''}`;
      }
      return `${part.alias}: ${part.fn} { ${part.columns.join(' ')} }`;
    });
    const aggregate = inner.length > 0 ? `aggregate { ${inner.join(' ')} }` : '';
    const nodeText = nodes ? `nodes ${this.selection(table, nodes)}` : '';
    return this.wrap(`${table}_aggregate`, [aggregate, nodeText].filter(Boolean).join(' '));
  }

  field(owner: string, field: Selection): string {
    switch (field.kind) {
      case 'typename':
        return '__typename';
      case 'fragment':
        return `... on ${field.on} { ${field.fields.map((inner) => this.field(field.on, inner)).join(' ')} }`;
      case 'scalar': {
        const args = field.args
          ? `(${Object.entries(field.args)
              .map(([name, value]) => `${name}: ${printLiteral(value)}`)
              .join(', ')})`
          : '';
        return `${field.name}${args}${field.directive ? ` ${field.directive}` : ''}`;
      }
      case 'object':
        return `${field.alias}: ${field.name}${field.directive ? ` ${field.directive}` : ''} ${this.selection(field.table, field.fields)}`;
      case 'array':
        return `${field.alias}: ${field.name}${this.listArgs(owner, field.name, field.args)} ${this.selection(field.table, field.fields)}`;
      case 'aggregate':
        return `${field.alias}: ${field.name}${this.listArgs(owner, field.name, field.args)} ${this.aggregate(field.table, field.parts, field.nodes)}`;
    }
  }

  root(rootType: string, root: RootSelection): string {
    switch (root.kind) {
      case 'select':
        return `${root.alias}: ${root.field}${this.listArgs(rootType, root.field, root.args)} ${this.selection(root.table, root.fields)}`;
      case 'aggregate':
        return `${root.alias}: ${root.field}${this.listArgs(rootType, root.field, root.args)} ${this.aggregate(root.table, root.parts, root.nodes)}`;
      case 'by_pk': {
        const args = Object.entries(root.key).map(([name, value]) =>
          this.arg(rootType, root.field, name, value),
        );
        return `${root.alias}: ${root.field}(${args.join(', ')}) ${this.selection(root.table, root.fields)}`;
      }
    }
  }
}

export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
}

/** The operation's text and variables (types from the role's schema, which admin's shares). */
export function render(query: OracleQuery, argTypes: Map<string, string>): GraphqlRequest {
  const printer = new Printer(query.inline, argTypes, query.fragments ?? false);
  const rootType = query.operation === 'query' ? 'query_root' : 'subscription_root';
  const body = query.roots.map((root) => printer.root(rootType, root)).join(' ');
  const declarations =
    printer.declarations.length > 0 ? `(${printer.declarations.join(', ')})` : '';
  return {
    query: `${query.operation} oracle${declarations} { ${body} }`,
    variables: printer.variables,
  };
}

/** How a query prints in a counterexample. */
export function withPrint(query: OracleQuery, argTypes: Map<string, string>): OracleQuery {
  Object.defineProperty(query, fc.toStringMethod, {
    enumerable: false,
    value: () => {
      const request = render(query, argTypes);
      return `${query.operation} as ${query.role} over ${query.transport}${query.poison ? ` [unlisted: ${query.poison}]` : ''}: ${request.query} variables ${JSON.stringify(request.variables)}`;
    },
  });
  return query;
}

type JsonValue = unknown;

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, sortKeys(item)]),
    );
  return value;
}

function canonicalRows(rows: JsonValue, fields: Selection[], ordered: boolean): JsonValue {
  if (!Array.isArray(rows)) return rows;
  const items = rows.map((row) => canonicalRow(row, fields));
  if (ordered) return items;
  return items
    .map((item) => [JSON.stringify(item), item] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, item]) => item);
}

function canonicalAggregate(
  value: JsonValue,
  nodes: Selection[] | undefined,
  ordered: boolean,
): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  const result = { ...(value as Record<string, unknown>) };
  if (nodes && 'nodes' in result) result['nodes'] = canonicalRows(result['nodes'], nodes, ordered);
  return sortKeys(result);
}

function canonicalRow(row: JsonValue, fields: Selection[]): JsonValue {
  if (row === null || typeof row !== 'object') return row;
  const result = { ...(row as Record<string, unknown>) };
  for (const field of fields) {
    if (field.kind === 'object')
      result[field.alias] = canonicalRow(result[field.alias], field.fields);
    else if (field.kind === 'array')
      result[field.alias] = canonicalRows(result[field.alias], field.fields, field.ordered);
    else if (field.kind === 'aggregate')
      result[field.alias] = canonicalAggregate(result[field.alias], field.nodes, field.ordered);
  }
  return sortKeys(result);
}

/**
 * An answer's data in a form two answers can be compared in: lists whose order the query does
 * not fix sorted, keys sorted. Lists with a total order_by (every list with a limit, an offset,
 * distinct_on or an order_by gets one, ending in the primary key) keep their order.
 */
export function canonicalData(data: JsonValue, query: OracleQuery): string {
  if (data === null || typeof data !== 'object') return JSON.stringify(data);
  const result = { ...(data as Record<string, unknown>) };
  for (const root of query.roots) {
    const value = result[root.alias];
    if (root.kind === 'select')
      result[root.alias] = canonicalRows(value, root.fields, root.ordered);
    else if (root.kind === 'aggregate')
      result[root.alias] = canonicalAggregate(value, root.nodes, root.ordered);
    else result[root.alias] = canonicalRow(value, root.fields);
  }
  return JSON.stringify(sortKeys(result));
}
