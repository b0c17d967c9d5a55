import type pg from 'pg';

import { executeAction } from '../actions/execute.ts';
import type { Session } from '../auth/session.ts';
import { HasuraError } from '../errors.ts';
import type { MutationPlan } from '../plan/ir.ts';
import type { RootPlan } from '../plan/root-plan.ts';
import type { OperationPlan } from '../plan/operation.ts';
import { SqlBuilder } from '../sql/builder.ts';
import { compileMutation, isNoOp, noOpJson } from '../sql/mutation.ts';
import { compileQuery } from '../sql/query.ts';

import { toHasuraError } from './pg-errors.ts';
import type { PreparedStatements } from '../database/prepared-statements.ts';

export interface ExecutionContext {
  pool: pg.Pool;
  /** Runs the compiled SQL, as named prepared statements where they are on. */
  statements: PreparedStatements;
  session: Session;
  /** The client's request headers (lower-cased). */
  headers: Readonly<Record<string, string | undefined>>;
  /** The request's query text, forwarded to action handlers as `request_query`. */
  requestQuery?: string;
  environment: Record<string, string | undefined>;
  stringifyNumericTypes: boolean;
  /** Answers introspection root fields (`__schema`, `__type`) of the operation. */
  introspect: (plan: OperationPlan) => Promise<Record<string, unknown>>;
  /** Told of a query's one statement when it answers the whole query (execute/query-cache.ts). */
  onQueryCompiled?: (sql: string, builder: SqlBuilder) => void;
}

/** Runs the one statement of a query; its `data` object as JSON text. */
export async function runQueryStatement(
  ctx: Pick<ExecutionContext, 'pool' | 'statements'>,
  sql: string,
  params: unknown[],
): Promise<string> {
  try {
    const result = await ctx.statements.query<{ data: string }>(ctx.pool, sql, params);
    return result.rows[0]!.data;
  } catch (error) {
    throw toHasuraError(error, '$');
  }
}

const actionContext = (ctx: ExecutionContext) => ({
  session: ctx.session,
  headers: ctx.headers,
  ...(ctx.requestQuery !== undefined ? { requestQuery: ctx.requestQuery } : {}),
  environment: ctx.environment,
  pool: ctx.pool,
  stringifyNumericTypes: ctx.stringifyNumericTypes,
});

const isMutation = (root: RootPlan): root is MutationPlan =>
  root.kind === 'insert' || root.kind === 'update' || root.kind === 'delete';

/** The `data` object of a response as JSON text, keys in the order of the selection. */
function joinData(entries: Array<[string, string]>): string {
  return `{${entries.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',')}}`;
}

async function runQuery(plan: OperationPlan, ctx: ExecutionContext): Promise<string> {
  const introspection = plan.roots.some((root) => root.kind === 'introspection')
    ? await ctx.introspect(plan)
    : undefined;
  const actions = new Map<string, string>();
  for (const root of plan.roots) {
    if (root.kind === 'action')
      actions.set(root.alias, await executeAction(root.plan, actionContext(ctx)));
  }
  const databaseRoots = plan.roots.filter(
    (root) => root.kind !== 'introspection' && root.kind !== 'action',
  );
  let databaseData: Record<string, unknown> | string = '{}';
  if (databaseRoots.length > 0 && databaseRoots.some((root) => root.kind !== 'typename')) {
    const builder = new SqlBuilder(ctx.session, ctx.stringifyNumericTypes);
    const sql = compileQuery(databaseRoots, builder);
    if (!introspection && actions.size === 0) ctx.onQueryCompiled?.(sql, builder);
    databaseData = await runQueryStatement(ctx, sql, builder.params);
  } else if (databaseRoots.length > 0) {
    databaseData = JSON.stringify(
      Object.fromEntries(
        databaseRoots.map((root) => [root.alias, root.kind === 'typename' ? root.value : null]),
      ),
    );
  }
  if (!introspection && actions.size === 0)
    return typeof databaseData === 'string' ? databaseData : JSON.stringify(databaseData);
  const parsed =
    typeof databaseData === 'string'
      ? (JSON.parse(databaseData) as Record<string, unknown>)
      : databaseData;
  return joinData(
    plan.roots.map((root): [string, string] => {
      if (root.kind === 'introspection')
        return [root.alias, JSON.stringify(introspection?.[root.alias] ?? null)];
      if (root.kind === 'action') return [root.alias, actions.get(root.alias)!];
      return [root.alias, JSON.stringify(parsed[root.alias] ?? null)];
    }),
  );
}

/** Where Hasura reports a failed mutation field: the objects of an insert, else the request. */
const mutationErrorPath = (plan: MutationPlan) =>
  plan.kind === 'insert' ? `$.selectionSet.${plan.alias}.args.objects` : '$';

/** Runs one mutation field's statement on `client` (inside whatever transaction is open). */
async function runMutationField(
  root: MutationPlan,
  client: pg.PoolClient,
  ctx: ExecutionContext,
): Promise<string> {
  if (isNoOp(root)) return JSON.stringify(noOpJson(root));
  const builder = new SqlBuilder(ctx.session, ctx.stringifyNumericTypes);
  const sql = compileMutation(root, builder);
  try {
    const result = await ctx.statements.queryOn<{ data: string }>(client, sql, builder.params);
    return result.rows[0]!.data;
  } catch (error) {
    throw toHasuraError(error, mutationErrorPath(root));
  }
}

/** Runs `work` in a transaction that knows the acting session (triggers read `hasura.user`). */
async function inTransaction<T>(
  ctx: ExecutionContext,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await ctx.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('hasura.user', $1, true)`, [
      JSON.stringify(ctx.session.variables),
    ]);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Database mutation fields run together in one transaction, as under Hasura. When the
 * operation also calls actions, each field runs on its own, in order, and no transaction is
 * open while a handler runs: a handler may call back into the engine or the database.
 */
async function runMutation(plan: OperationPlan, ctx: ExecutionContext): Promise<string> {
  const entries: Array<[string, string]> = [];
  const hasAction = plan.roots.some((root) => root.kind === 'action');
  const answer = async (root: RootPlan, client: pg.PoolClient | undefined): Promise<string> => {
    if (root.kind === 'typename') return JSON.stringify(root.value);
    if (root.kind === 'action') return executeAction(root.plan, actionContext(ctx));
    if (!isMutation(root)) throw new HasuraError('unexpected', `${root.kind} in a mutation`, '$');
    if (client) return runMutationField(root, client, ctx);
    return inTransaction(ctx, (own) => runMutationField(root, own, ctx));
  };
  if (hasAction) {
    for (const root of plan.roots) entries.push([root.alias, await answer(root, undefined)]);
  } else {
    await inTransaction(ctx, async (client) => {
      for (const root of plan.roots) entries.push([root.alias, await answer(root, client)]);
    });
  }
  return joinData(entries);
}

/** Runs a planned operation; returns the `data` object as JSON text. */
export function executeOperation(plan: OperationPlan, ctx: ExecutionContext): Promise<string> {
  return plan.type === 'mutation' ? runMutation(plan, ctx) : runQuery(plan, ctx);
}
