import type { Session } from '../auth/session.ts';
import { HasuraError } from '../errors.ts';
import type { RootPlan } from '../plan/root-plan.ts';
import type { OperationPlan } from '../plan/operation.ts';
import { SqlBuilder } from '../sql/builder.ts';
import { compileQuery } from '../sql/query.ts';

import { RESULT_ALIAS, SUBSCRIBERS_ALIAS, renderRowParam, variablesRow } from './params.ts';

/** Marks multiplexed statements, so pg_stat_statements (or a log) can count them apart. */
export const LIVE_QUERY_MARKER = '/* live-query */';

/**
 * A subscription compiled for multiplexing: `sql` reads every request and session value from
 * the subscriber's variables row, so it is the same text for every subscriber of the same
 * query shape (same fields, arguments, permission filter, role-dependent structure), and
 * `variables` is this subscriber's row.
 */
export interface CompiledLiveQuery {
  /** The per-subscriber query (one row, json text `data`); the cohort key. */
  sql: string;
  /** The subscriber's parameters as a JSON array text. */
  variables: string;
}

const DATABASE_ROOTS = new Set<RootPlan['kind']>([
  'select',
  'select_by_pk',
  'select_aggregate',
  'typename',
]);

/** Whether the plan's root fields can be served by a live query in the database. */
export function isLiveQueryPlan(plan: OperationPlan): boolean {
  return plan.roots.every((root) => DATABASE_ROOTS.has(root.kind));
}

/**
 * Hasura's rule: one root field per subscription, unless the (unsupported, test-only)
 * `@_multiple_top_level_fields` directive is on the operation.
 */
export function checkSubscriptionRoots(plan: OperationPlan): void {
  const allowMultiple = (plan.operation.directives ?? []).some(
    (directive) => directive.name.value === '_multiple_top_level_fields',
  );
  if (plan.roots.length > 1 && !allowMultiple) {
    throw new HasuraError(
      'validation-failed',
      'subscriptions must select one top level field',
      '$',
    );
  }
}

/** Compiles a subscription plan for one subscriber; throws HasuraError (e.g. a missing session variable). */
export function compileLiveQuery(
  plan: OperationPlan,
  session: Session,
  stringifyNumericTypes: boolean,
): CompiledLiveQuery {
  const builder = new SqlBuilder(session, stringifyNumericTypes, renderRowParam);
  const sql = compileQuery(plan.roots, builder);
  return { sql, variables: variablesRow(builder.params) };
}

/**
 * The statement answering a batch of a cohort's subscribers at once: `$1` their ids, `$2`
 * their variables rows; one row (`id`, `data`) per subscriber.
 */
export function multiplexedStatement(sql: string): string {
  return (
    `${LIVE_QUERY_MARKER} SELECT ${SUBSCRIBERS_ALIAS}."id", ${RESULT_ALIAS}."data" ` +
    `FROM unnest($1::text[], $2::jsonb[]) AS ${SUBSCRIBERS_ALIAS}("id", "vars") ` +
    `LEFT JOIN LATERAL (${sql}) AS ${RESULT_ALIAS} ON true`
  );
}
