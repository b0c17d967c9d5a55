import type pg from 'pg';

import type { Metadata } from '@app/engine';

import { createSessionResolver, parseJwtConfig } from '../../../hasura/engine/src/auth/index.ts';
import type { Session } from '../../../hasura/engine/src/auth/session.ts';
import { introspect } from '../../../hasura/engine/src/catalog/introspect.ts';
import type { MutationPlan } from '../../../hasura/engine/src/plan/ir.ts';
import type { RootPlan } from '../../../hasura/engine/src/plan/root-plan.ts';
import { planOperation } from '../../../hasura/engine/src/plan/operation.ts';
import { buildSchemaModel } from '../../../hasura/engine/src/schema/build.ts';
import type { SchemaModel } from '../../../hasura/engine/src/schema/model.ts';
import { SqlBuilder } from '../../../hasura/engine/src/sql/builder.ts';
import {
  compileMutation,
  PERMISSION_CHECK_FUNCTION_DDL,
} from '../../../hasura/engine/src/sql/mutation.ts';
import { compileQuery } from '../../../hasura/engine/src/sql/query.ts';

/*
 * The engine's own compiler, run in-process (nothing new exposed by the engine): the SQL the
 * engine sends for an operation, for a session and variables, exactly as executeOperation
 * builds it (queries: one statement; mutations: BEGIN, set_config('hasura.user'), the
 * statement, COMMIT).
 */

export interface CompiledOperation {
  kind: 'query' | 'mutation';
  sql: string;
  params: unknown[];
  /** Mutations only: the value of set_config('hasura.user', $1, true). */
  sessionJson?: string;
}

export interface EngineCompiler {
  model: SchemaModel;
  /** The session the engine resolves for these request headers (JWT, admin secret). */
  session(headers: Record<string, string>): Session;
  compile(query: string, variables: Record<string, unknown>, session: Session): CompiledOperation;
}

const isMutation = (root: RootPlan): root is MutationPlan =>
  root.kind === 'insert' || root.kind === 'update' || root.kind === 'delete';

export async function createCompiler(
  pool: pg.Pool,
  metadata: Metadata,
  auth: { adminSecret: string; jwtSecret: string },
): Promise<EngineCompiler> {
  await pool.query(PERMISSION_CHECK_FUNCTION_DDL);
  const source = metadata.sources[0];
  const catalog = await introspect(
    pool,
    (source?.tables ?? []).map((table) => table.table),
    (source?.tables ?? []).flatMap((table) =>
      table.computed_fields.map((field) => field.definition.function),
    ),
  );
  const model = buildSchemaModel(metadata, catalog);
  const resolveSession = createSessionResolver({
    adminSecret: auth.adminSecret,
    jwt: parseJwtConfig(JSON.parse(auth.jwtSecret)),
  });
  return {
    model,
    session: (headers) =>
      resolveSession(
        Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
      ),
    compile(query, variables, session) {
      const plan = planOperation(
        { query, variables },
        { model, schema: model.forRole(session.role), session, stringifyNumericTypes: true },
      );
      const builder = new SqlBuilder(session, true);
      if (plan.type === 'mutation') {
        const root = plan.roots[0];
        if (plan.roots.length !== 1 || !root || !isMutation(root))
          throw new Error('the benchmark compiles one mutation field per operation');
        const sql = compileMutation(root, builder);
        return {
          kind: 'mutation',
          sql,
          params: builder.params,
          sessionJson: JSON.stringify(session.variables),
        };
      }
      const sql = compileQuery(plan.roots, builder);
      return { kind: 'query', sql, params: builder.params };
    },
  };
}

/*
 * A compiled statement as a template: which parameters carry the request's inputs. The
 * endpoint compiles once with sentinel inputs, then binds each request's values by position,
 * as a hand-written endpoint with a fixed SQL string would.
 */

export type ParamSource =
  | { kind: 'constant'; value: unknown }
  /** The whole parameter is input `name`. */
  | { kind: 'input'; name: string }
  /** A string parameter with input `name` inside it (e.g. the session JSON). */
  | { kind: 'embedded'; name: string; text: string; sentinel: string };

export interface StatementTemplate {
  kind: 'query' | 'mutation';
  sql: string;
  params: ParamSource[];
  /** For mutations: how the set_config('hasura.user') value is built. */
  sessionParam?: ParamSource;
}

function sourceOf(value: unknown, sentinels: Map<string, string>): ParamSource {
  if (typeof value === 'string') {
    for (const [sentinel, name] of sentinels) {
      if (value === sentinel) return { kind: 'input', name };
      if (value.includes(sentinel)) return { kind: 'embedded', name, text: value, sentinel };
    }
  }
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') {
    const name = sentinels.get(value[0]);
    if (name) return { kind: 'input', name };
  }
  return { kind: 'constant', value };
}

/** Builds a template from an operation compiled with sentinel strings as inputs. */
export function templateOf(
  compiled: CompiledOperation,
  sentinels: Map<string, string>,
): StatementTemplate {
  const template: StatementTemplate = {
    kind: compiled.kind,
    sql: compiled.sql,
    params: compiled.params.map((value) => sourceOf(value, sentinels)),
  };
  if (compiled.sessionJson !== undefined)
    template.sessionParam = sourceOf(compiled.sessionJson, sentinels);
  return template;
}

export function bind(source: ParamSource, inputs: Record<string, unknown>): unknown {
  switch (source.kind) {
    case 'constant':
      return source.value;
    case 'input':
      return inputs[source.name];
    case 'embedded':
      return source.text.replaceAll(source.sentinel, String(inputs[source.name]));
  }
}

export function bindAll(template: StatementTemplate, inputs: Record<string, unknown>): unknown[] {
  return template.params.map((source) => bind(source, inputs));
}
