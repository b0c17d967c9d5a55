import { CANDIDATES, targetUrl, type Servers } from './candidates.ts';
import type { BenchDatabase, DataSet } from './database.ts';
import {
  insertRequestFactory,
  QUERY_NAMES,
  readPool,
  isPostgraphile,
  type BenchRequest,
  type Candidate,
  type QueryName,
  type TokenBook,
} from './workload.ts';

/*
 * The correctness checks `npm run bench:engine` runs before any load: a candidate that answers
 * wrongly is not measured (its rows say why).
 */

async function post(url: string, request: BenchRequest): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: await response.text() };
}

type Json = Record<string, unknown>;

/** Ids in a response, in order (history: the list; by-pk: the one row; insert: the new row). */
function idsOf(candidate: Candidate, query: QueryName, text: string): string[] {
  const data = (JSON.parse(text) as { data?: Json }).data ?? {};
  if (isPostgraphile(candidate)) {
    if (query === 'history')
      return ((data['allTransactionsList'] as Json[] | null) ?? []).map((row) => String(row['id']));
    if (query === 'by_pk')
      return data['transactionById'] ? [String((data['transactionById'] as Json)['id'])] : [];
    const created = (data['createTransaction'] as Json | null)?.['transaction'] as Json | undefined;
    return created ? [String(created['id'])] : [];
  }
  if (query === 'history')
    return ((data['transactions'] as Json[] | null) ?? []).map((row) => String(row['id']));
  if (query === 'by_pk')
    return data['transactions_by_pk'] ? [String((data['transactions_by_pk'] as Json)['id'])] : [];
  return data['insert_transactions_one']
    ? [String((data['insert_transactions_one'] as Json)['id'])]
    : [];
}

export interface Check {
  query: QueryName;
  candidate: Candidate;
  ok: boolean;
  detail: string;
}

/**
 * Before any load: every candidate answers sample requests without errors; the engine and
 * pg+http answer byte-identical bodies for reads (same SQL, same values); PostGraphile 4 and 5
 * return the same rows (ids, in order) as the engine.
 */
export async function checkCandidates(
  servers: Servers,
  data: DataSet,
  tokens: TokenBook,
  db: BenchDatabase,
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const query of QUERY_NAMES) {
    const samples = 12;
    const pools: Partial<Record<Candidate, BenchRequest[]>> = {};
    for (const candidate of CANDIDATES) {
      if (!servers[candidate]) continue;
      if (query === 'insert') {
        const next = insertRequestFactory(candidate, data, tokens, `check-${candidate}`);
        pools[candidate] = Array.from({ length: samples }, () => next());
      } else pools[candidate] = readPool(candidate, query, data, tokens).slice(0, samples);
    }
    const answers: Partial<Record<Candidate, string[]>> = {};
    for (const candidate of CANDIDATES) {
      const pool = pools[candidate];
      if (!pool) continue;
      const texts: string[] = [];
      let failure: string | undefined;
      for (const request of pool) {
        try {
          const { status, text } = await post(targetUrl(servers, candidate, query), request);
          if (status !== 200 || text.includes('"errors"'))
            failure ??= `${status} ${text.slice(0, 400)}`;
          texts.push(text);
        } catch (error) {
          const stderr = servers[candidate]?.stderrTail().split('\n').slice(-8).join(' | ');
          failure ??= `${error instanceof Error ? error.message : String(error)}${stderr ? ` (process stderr: ${stderr})` : ''}`;
        }
      }
      answers[candidate] = texts;
      const empty = texts.filter(
        (text) => !failure && idsOf(candidate, query, text).length === 0,
      ).length;
      checks.push({
        query,
        candidate,
        ok: failure === undefined && empty < samples,
        detail: failure ?? `${samples} answers without errors${empty ? ` (${empty} empty)` : ''}`,
      });
    }
    if (query === 'insert') {
      // The trigger-written status history names who acted (hasura.user), for every candidate.
      for (const candidate of CANDIDATES) {
        if (!answers[candidate]) continue;
        const { rows } = await db.pool.query<{ orders: number; attributed: number }>(
          `SELECT count(*)::int AS orders, count(*) FILTER (WHERE h.changed_by = t.user_id)::int AS attributed
             FROM public.transactions t JOIN public.transaction_status_history h ON h.transaction_id = t.id
            WHERE t.idempotency_key LIKE $1`,
          [`bench-check-${candidate}-%`],
        );
        const { orders, attributed } = rows[0]!;
        checks.push({
          query,
          candidate,
          ok: orders === samples && attributed === samples,
          detail: `${orders} orders created, ${attributed} status-history rows attributed to the inserting user`,
        });
      }
    }
    const engine = answers.engine;
    const pgHttp = answers.pg_http;
    if (query !== 'insert' && engine && pgHttp && engine.length === pgHttp.length) {
      const same = engine.every((text, i) => text === pgHttp[i]);
      checks.push({
        query,
        candidate: 'pg_http',
        ok: same,
        detail: same ? 'bodies byte-identical to the engine' : 'bodies differ from the engine',
      });
    }
    for (const candidate of ['postgraphile', 'postgraphile5'] as const) {
      const theirs = answers[candidate];
      if (query === 'insert' || !engine || !theirs || engine.length !== theirs.length) continue;
      const same = engine.every(
        (text, i) =>
          JSON.stringify(idsOf('engine', query, text)) ===
          JSON.stringify(idsOf(candidate, query, theirs[i]!)),
      );
      checks.push({
        query,
        candidate,
        ok: same,
        detail: same ? 'same rows (ids, in order) as the engine' : 'rows differ from the engine',
      });
    }
  }
  return checks;
}
