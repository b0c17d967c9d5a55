import fc from 'fast-check';

import type { Role } from '../../hostile/graphql-shots.ts';

import { listArbitraries } from './list-args.ts';
import { scalarOf, valuesOf, type Pools } from './operands.ts';
import type { ArgValue, OracleQuery, RootSelection, Transport } from './query.ts';
import type { RoleModel, RootFields } from './schema-model.ts';
import { selectionArbitraries } from './selections.ts';

export { valuesOf, type Pools } from './operands.ts';

/*
 * Operations generated from a role's own schema (schema-model.ts): every root field, every
 * column, every operator of every comparison type, relationships in selections, filters and
 * order_by (and their aggregates), distinct_on, limit and offset, aggregates. Values come from
 * the data itself, hidden rows included (pools.ts), so that filters ask about rows the role may
 * not see and not only about made-up values. Built once per role (no `chain`), so that fast-check
 * shrinks a failure down to the smallest operation that still fails.
 *
 * The values and operands are in operands.ts, the list arguments (where, order_by, distinct_on,
 * limit, offset) in list-args.ts, the selection sets in selections.ts; this file puts them
 * together into each root field and the whole operation.
 */

export interface Generator {
  role: Role;
  model: RoleModel;
  query: fc.Arbitrary<OracleQuery>;
  /** Subscriptions only (live queries over the WebSocket); undefined when the role has none. */
  subscription: fc.Arbitrary<OracleQuery> | undefined;
  /** Where expressions of a table (for poison inside relationship filters). */
  where(table: string, depth: number): fc.Arbitrary<ArgValue>;
  /** The columns order_by ends with to fix the order (primary key, else every column). */
  tiebreak(table: string): string[];
}

export function buildGenerator(
  role: Role,
  model: RoleModel,
  pools: Pools,
  primaryKeys: Map<string, string[]>,
  computedFields: Set<string>,
  transports: Transport[],
): Generator {
  const tables = model.tables;
  const { where, tiebreak, listArgs } = listArbitraries(model, pools, primaryKeys, computedFields);
  const { fields, aggregateSelection } = selectionArbitraries(model, listArgs);

  function roots(fieldsOf: RootFields): Array<fc.Arbitrary<RootSelection>> {
    const result: Array<fc.Arbitrary<RootSelection>> = [];
    for (const [field, table] of fieldsOf.select)
      result.push(
        fc
          .tuple(listArgs(table, 3, 50), fields(table, 2))
          .map(([{ args, ordered }, selection]): RootSelection => ({
            kind: 'select',
            field,
            alias: field,
            table,
            args,
            ordered,
            fields: selection,
          })),
      );
    for (const [field, table] of fieldsOf.aggregate)
      result.push(
        fc
          .tuple(listArgs(table, 3, 50), aggregateSelection(table, 1))
          .map(([{ args, ordered }, { parts, nodes }]): RootSelection => ({
            kind: 'aggregate',
            field,
            alias: field,
            table,
            args,
            ordered,
            parts,
            nodes,
          })),
      );
    for (const [field, { table, args }] of fieldsOf.byPk) {
      const tableModel = tables.get(table)!;
      result.push(
        fc
          .tuple(
            fc.tuple(
              ...args.map((arg) =>
                fc.constantFrom(...valuesOf(pools, table, arg, scalarOf(tableModel, arg))),
              ),
            ),
            fields(table, 2),
          )
          .map(([values, selection]): RootSelection => ({
            kind: 'by_pk',
            field,
            alias: field,
            table,
            key: Object.fromEntries(args.map((arg, i) => [arg, values[i]!])),
            fields: selection,
          })),
      );
    }
    return result;
  }

  const queryRoots = roots(model.query);
  const subscriptionRoots = roots(model.subscription);
  const asQuery = fc
    .record({
      roots: fc.uniqueArray(fc.oneof(...queryRoots), {
        minLength: 1,
        maxLength: 2,
        selector: (root) => root.alias,
      }),
      transport: fc.constantFrom(...transports),
      inline: fc.boolean(),
      fragments: fc.boolean(),
    })
    .map(({ roots: selected, transport, inline, fragments }): OracleQuery => ({
      role,
      operation: 'query',
      transport,
      inline,
      ...(fragments ? { fragments } : {}),
      roots: selected,
    }));
  const subscription =
    subscriptionRoots.length > 0 && transports.includes('ws')
      ? fc
          .tuple(fc.oneof(...subscriptionRoots), fc.boolean(), fc.boolean())
          .map(([root, inline, fragments]): OracleQuery => ({
            role,
            operation: 'subscription',
            transport: 'ws',
            inline,
            ...(fragments ? { fragments } : {}),
            roots: [root],
          }))
      : undefined;
  return {
    role,
    model,
    query: subscription
      ? fc.oneof({ weight: 4, arbitrary: asQuery }, { weight: 1, arbitrary: subscription })
      : asQuery,
    subscription,
    where,
    tiebreak,
  };
}
