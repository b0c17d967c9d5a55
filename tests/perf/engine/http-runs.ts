import type { BenchLog } from '../harness.ts';

import { CANDIDATES, targetUrl, type Servers } from './candidates.ts';
import type { ChildStats } from './children.ts';
import type { BenchConfig } from './config.ts';
import type { DataSet } from './database.ts';
import { cycle, runLoad, type LoadResult } from './load.ts';
import { ROW_LABELS, type QueryResult, type RunRecord } from './report.ts';
import {
  insertRequestFactory,
  QUERY_NAMES,
  readPool,
  type Candidate,
  type QueryName,
  type TokenBook,
} from './workload.ts';

/*
 * The measured HTTP runs of `npm run bench:engine`: every query on every candidate, interleaved
 * round by round, each run after a warm-up, with the statements and CPU each request cost the
 * candidate process; then the same statements from a pool inside the pg+http process, no HTTP.
 */

function requestSource(
  candidate: Candidate,
  query: QueryName,
  data: DataSet,
  tokens: TokenBook,
  runTag: string,
) {
  if (query === 'insert') return insertRequestFactory(candidate, data, tokens, runTag);
  return cycle(readPool(candidate, query, data, tokens));
}

const SETTLE_MS = 300;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Per request sent (requests in flight at the end were still executed by the candidate). */
function perRequest(before: ChildStats, after: ChildStats, load: LoadResult) {
  if (load.sent === 0) return { statements: null, cpuMs: null };
  return {
    statements: (after.statements - before.statements) / load.sent,
    cpuMs:
      (after.cpuUserUs + after.cpuSystemUs - before.cpuUserUs - before.cpuSystemUs) /
      1000 /
      load.sent,
  };
}

/** The user id in a (trusted, self-minted) bearer token's Hasura claims. */
function userOfToken(authorization: string): string {
  const payload = authorization.split('.')[1] ?? '';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  return claims['https://hasura.io/jwt/claims']?.['x-hasura-user-id'] ?? '';
}

interface DirectResult {
  perSecond: number;
  operations: number;
  errors: number;
  p50: number | null;
  p99: number | null;
}

/** Fills `queries` with every round's runs; a candidate that fails a run is marked unavailable. */
export async function runHttp(
  servers: Servers,
  config: BenchConfig,
  data: DataSet,
  tokens: TokenBook,
  queries: Record<QueryName, QueryResult>,
  step: BenchLog['step'],
): Promise<void> {
  let runCounter = 0;
  for (let round = 1; round <= config.rounds; round++) {
    for (const query of QUERY_NAMES) {
      // Interleaved, rotating the start: A,B,C,D then B,C,D,A then C,D,A,B.
      const order = CANDIDATES.map((_, i) => CANDIDATES[(i + round - 1) % CANDIDATES.length]!);
      for (const candidate of order) {
        const result = queries[query].candidates[candidate];
        const server = servers[candidate];
        if (!server || !result.available) continue;
        const url = targetUrl(servers, candidate, query);
        runCounter += 1;
        const tag = `r${round}-${runCounter}`;
        try {
          if (config.warmupS > 0) {
            await runLoad({
              url,
              connections: config.connections,
              durationS: config.warmupS,
              next: requestSource(candidate, query, data, tokens, `${tag}w`),
            });
          }
          // Requests still in flight when a load stops are answered after it: let them finish
          // so each window's statement and CPU counts hold only its own requests.
          await sleep(SETTLE_MS);
          const before = await server.stats();
          const load = await runLoad({
            url,
            connections: config.connections,
            durationS: config.durationS,
            next: requestSource(candidate, query, data, tokens, tag),
          });
          await sleep(SETTLE_MS);
          const after = await server.stats();
          const per = perRequest(before, after, load);
          const run: RunRecord = {
            round,
            rps: Math.round(load.rps),
            p50: load.latencyMs.p50,
            p97_5: load.latencyMs.p97_5,
            p99: load.latencyMs.p99,
            requests: load.requests,
            errors: load.errors,
            statements_per_request:
              per.statements === null ? null : Math.round(per.statements * 1000) / 1000,
            cpu_ms_per_request: per.cpuMs === null ? null : Math.round(per.cpuMs * 10000) / 10000,
          };
          if (load.sampleError) run.sample_error = load.sampleError;
          result.runs.push(run);
          step(
            `round ${round} ${query.padEnd(7)} ${ROW_LABELS[candidate].padEnd(18)} ${String(run.rps).padStart(6)} req/s  p50 ${load.latencyMs.p50} ms  p99 ${load.latencyMs.p99} ms  SQL/req ${run.statements_per_request ?? 'n/a'}${load.errors ? `  errors ${load.errors} (${load.sampleError ?? ''})` : ''}`,
          );
        } catch (error) {
          result.available = false;
          result.reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
          step(`round ${round} ${query} ${candidate}: failed: ${result.reason}`);
        }
      }
      // The extra row: the same statements from a pool inside the pg+http process, no HTTP.
      const direct = queries[query].candidates.pg_direct;
      if (servers.pg_http && direct.available) {
        const source = query === 'insert' ? null : readPool('pg_http', query, data, tokens);
        const requests = (
          source ?? [insertRequestFactory('pg_http', data, tokens, `direct-${round}`)()]
        ).map((request) => ({
          user: userOfToken(request.headers['authorization']!),
          variables: (JSON.parse(request.body) as { variables: unknown }).variables,
        }));
        try {
          const result = await servers.pg_http.request<DirectResult>(
            'direct',
            {
              query,
              requests,
              concurrency: config.directConcurrency,
              durationMs: config.directDurationS * 1000,
              runTag: `${round}-${Date.now()}`,
            },
            config.directDurationS * 1000 + 60_000,
          );
          direct.runs.push({
            round,
            rps: Math.round(result.perSecond),
            p50: result.p50,
            p99: result.p99,
            requests: result.operations,
            errors: result.errors,
          });
          step(
            `round ${round} ${query.padEnd(7)} ${'pg direct'.padEnd(18)} ${String(Math.round(result.perSecond)).padStart(6)} q/s    p50 ${result.p50} ms  p99 ${result.p99} ms`,
          );
        } catch (error) {
          direct.available = false;
          direct.reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        }
      }
    }
  }
}
