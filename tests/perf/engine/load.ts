import autocannon from 'autocannon';

import type { BenchRequest } from './workload.ts';

/*
 * Closed-loop HTTP load with autocannon (library): `connections` clients, each sending its
 * next request as soon as the previous answer arrives, for `durationS`. Requests come from
 * `next()` (a pre-built pool, or fresh inserts); a 200 whose body carries GraphQL `errors`
 * counts as an error too (the engine answers request errors with 200, as Hasura does).
 */

export interface LoadResult {
  /** Completed requests. */
  requests: number;
  /** Requests sent (completed + in flight when the run stopped). */
  sent: number;
  durationS: number;
  /** Completed requests per second. */
  rps: number;
  latencyMs: { p50: number; p90: number; p97_5: number; p99: number; max: number; mean: number };
  /** Non-2xx answers, socket errors, timeouts and 2xx answers with GraphQL errors. */
  errors: number;
  errorDetail: { non2xx: number; socket: number; timeouts: number; graphql: number };
  /** One failing body, for the log. */
  sampleError?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  next: () => BenchRequest;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  let sampleError: string | undefined;
  const result = await autocannon({
    url: target.origin,
    connections: options.connections,
    duration: options.durationS,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        setupRequest: (request) => {
          const next = options.next();
          return {
            ...request,
            method: 'POST',
            path: target.pathname,
            headers: next.headers,
            body: next.body,
          };
        },
        onResponse: (status, body) => {
          if (sampleError === undefined && (status !== 200 || body.includes('"errors"')))
            sampleError = `${status} ${body.slice(0, 300)}`;
        },
      },
    ],
    verifyBody: (body) => !String(body ?? '').includes('"errors"'),
  });
  const graphql = (result as unknown as { mismatches?: number }).mismatches ?? 0;
  const completed = result.requests.total;
  const durationS = result.duration;
  const loadResult: LoadResult = {
    requests: completed,
    sent: result.requests.sent,
    durationS,
    rps: durationS > 0 ? completed / durationS : 0,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    errors: result.non2xx + result.errors + result.timeouts + graphql,
    errorDetail: {
      non2xx: result.non2xx,
      socket: result.errors,
      timeouts: result.timeouts,
      graphql,
    },
  };
  if (sampleError !== undefined) loadResult.sampleError = sampleError;
  return loadResult;
}

/** Cycles through a pool of requests. */
export function cycle(pool: readonly BenchRequest[]): () => BenchRequest {
  let index = 0;
  return () => {
    const request = pool[index]!;
    index = (index + 1) % pool.length;
    return request;
  };
}
