import type pg from 'pg';

import {
  bindTemplate,
  createQueryCache,
  queryKey,
  templateOf,
} from '../../../hasura/engine/src/execute/query-cache.ts';
import {
  planPrepared,
  prepareOperation,
  type GraphQLRequest,
} from '../../../hasura/engine/src/plan/operation.ts';
import { SqlBuilder } from '../../../hasura/engine/src/sql/builder.ts';
import { compileQuery } from '../../../hasura/engine/src/sql/query.ts';

import { createCompiler } from './compile.ts';
import { ADMIN_SECRET, benchMetadata, JWT_SECRET } from './metadata.ts';
import type { BenchRequest, QueryName } from './workload.ts';

/*
 * G3 (shared/PERFORMANCE.md): what the query-plan cache (hasura/engine/src/execute/query-
 * cache.ts) saves per request, in-process, on the benchmark's own requests. Cold: planning and
 * compiling, as on a miss; warm: the key, the lookup and binding the kept statement, as on a
 * hit. Both also run what every request runs before them (the allow-list, the operation's
 * limits, its variables), reported apart as the request path. Timed over many requests after
 * a warm-up (no callgrind here: instruction counts are not available, so time stands in).
 */

export interface PlanCacheTiming {
  /** Planning + compiling per request (a miss), µs. */
  cold_compile_us: number;
  /** Key + lookup + binding per request (a hit), µs. */
  warm_compile_us: number;
  warm_vs_cold_compile: number;
  /** The same with the per-request preparation both share, µs. */
  cold_request_us: number;
  warm_request_us: number;
  warm_vs_cold_request: number;
}

const ITERATIONS = 20_000;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

export async function measurePlanCache(
  pool: pg.Pool,
  requests: Record<Extract<QueryName, 'history' | 'by_pk'>, BenchRequest[]>,
): Promise<Record<'history' | 'by_pk', PlanCacheTiming>> {
  const compiler = await createCompiler(pool, await benchMetadata(), {
    adminSecret: ADMIN_SECRET,
    jwtSecret: JWT_SECRET,
  });
  const { model } = compiler;
  const measure = (pool: BenchRequest[]): PlanCacheTiming => {
    const inputs = pool.map((request) => {
      const session = compiler.session(request.headers);
      const base = {
        model,
        schema: model.forRole(session.role),
        session,
        stringifyNumericTypes: true,
      };
      return { request: JSON.parse(request.body) as GraphQLRequest, session, base };
    });
    const cache = createQueryCache();
    const prepare = (i: number) => {
      const input = inputs[i % inputs.length]!;
      return { input, prepared: prepareOperation(input.request, input.base) };
    };
    const keyOf = ({ input, prepared }: ReturnType<typeof prepare>) =>
      queryKey({
        query: input.request.query,
        operationName: input.request.operationName,
        operation: prepared.operation,
        role: input.session.role,
        backendOnly: false,
        variables: prepared.variables,
      })!;
    const cold = (item: ReturnType<typeof prepare>) => {
      const plan = planPrepared(item.prepared, { ...item.input.base, recordBindings: true });
      const builder = new SqlBuilder(item.input.session, true);
      const sql = compileQuery(plan.roots, builder);
      return templateOf(
        sql,
        builder,
        plan.bindings!,
        item.prepared.operation,
        item.prepared.variables,
        item.input.session,
      );
    };
    const warm = (item: ReturnType<typeof prepare>) => {
      const kept = cache.find(
        item.prepared.document,
        keyOf(item),
        item.prepared.variables,
        item.input.session,
      );
      if (!kept) throw new Error('the plan cache missed a request it had kept');
      return bindTemplate(kept, item.prepared.variables, item.input.session);
    };
    // Keep a statement for every key the pool has, then warm up both paths.
    for (let i = 0; i < inputs.length; i++) {
      const item = prepare(i);
      const template = cold(item);
      if (!template) throw new Error('the benchmark query could not be kept');
      const { document, variables } = item.prepared;
      if (!cache.find(document, keyOf(item), variables, item.input.session))
        cache.keep(document, keyOf(item), template);
    }
    const time = (run: (i: number) => unknown) => {
      for (let i = 0; i < 2000; i++) run(i);
      const started = process.hrtime.bigint();
      for (let i = 0; i < ITERATIONS; i++) run(i);
      return Number(process.hrtime.bigint() - started) / 1000 / ITERATIONS;
    };
    const prepared = Array.from({ length: inputs.length }, (_, i) => prepare(i));
    const coldCompile = time((i) => cold(prepared[i % prepared.length]!));
    const warmCompile = time((i) => warm(prepared[i % prepared.length]!));
    const coldRequest = time((i) => cold(prepare(i)));
    const warmRequest = time((i) => warm(prepare(i)));
    return {
      cold_compile_us: round3(coldCompile),
      warm_compile_us: round3(warmCompile),
      warm_vs_cold_compile: round3(warmCompile / coldCompile),
      cold_request_us: round3(coldRequest),
      warm_request_us: round3(warmRequest),
      warm_vs_cold_request: round3(warmRequest / coldRequest),
    };
  };
  return { history: measure(requests.history), by_pk: measure(requests.by_pk) };
}
