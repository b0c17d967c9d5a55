import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import pg from 'pg';

import { bindAll, createCompiler, templateOf, type StatementTemplate } from '../engine/compile.ts';
import { ADMIN_SECRET, benchMetadata, JWT_SECRET } from '../engine/metadata.ts';
import { summarize } from '../engine/stats.ts';
import { ENGINE_QUERIES, TokenBook, type QueryName } from '../engine/workload.ts';

import { announceReady, countStatements, requireEnv, serveIpc } from './child.ts';

/*
 * Candidate (a), "pg+http, same SQL": a hand-written node:http + node-postgres endpoint (as
 * shared/perf-reference/pg-http-baseline.mjs) that runs the SQL the engine compiles for the
 * benchmark's operations. The SQL is compiled once at start-up with the engine's own modules
 * (sentinel inputs mark which parameters carry request values); each request then only
 * parses the body, verifies the HS256 JWT with node:crypto, binds values and runs the same
 * statement(s) the engine would: one for a query; BEGIN, set_config('hasura.user'), the
 * statement, COMMIT for a mutation. It takes the same request bodies as the engine, on
 * /history, /by_pk and /insert, and answers the same bytes. Its statements are named prepared
 * statements, as the reference's are and as the engine's are on PostgreSQL; on PGlite (one
 * session shared by every connection) neither names them.
 */

countStatements();
const databaseUrl = requireEnv('BENCH_DATABASE_URL');
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(requireEnv('BENCH_POOL_SIZE')),
});
const jwtKey = (JSON.parse(JWT_SECRET) as { key: string }).key;
const prepared = requireEnv('BENCH_PREPARED_STATEMENTS') === '1';
/** The statement of `query`, named when prepared statements are on. */
const statementOf = (query: QueryName, text: string, values: unknown[]): pg.QueryConfig =>
  prepared ? { name: `bench_${query}`, text, values } : { text, values };

const USER = '00000000-0000-4000-8000-0000000000aa';
const ID = '00000000-0000-4000-8000-0000000000bb';
const INSERT_FIELDS = [
  ['send_currency', '__in_send_currency__'],
  ['receive_currency', '__in_receive_currency__'],
  ['send_amount', '900000001'],
  ['receive_amount', '900000002'],
  ['rate', '900000003'],
  ['email', '__in_email__'],
  ['full_name', '__in_full_name__'],
  ['wallet_address', '__in_wallet_address__'],
  ['reason', '__in_reason__'],
  ['idempotency_key', '__in_idempotency_key__'],
] as const;

async function buildTemplates(): Promise<Record<QueryName, StatementTemplate>> {
  const compiler = await createCompiler(pool, await benchMetadata(), {
    adminSecret: ADMIN_SECRET,
    jwtSecret: JWT_SECRET,
  });
  // The session the engine resolves for a user's JWT (the sentinel user's).
  const session = compiler.session(new TokenBook().headers(USER));
  const sentinels = new Map<string, string>([
    [USER, 'user'],
    [ID, 'id'],
    ['__in_statuses__', 'statuses'],
    ...INSERT_FIELDS.map(([field, sentinel]): [string, string] => [sentinel, `object.${field}`]),
  ]);
  return {
    history: templateOf(
      compiler.compile(ENGINE_QUERIES.history, { statuses: ['__in_statuses__'] }, session),
      sentinels,
    ),
    by_pk: templateOf(compiler.compile(ENGINE_QUERIES.by_pk, { id: ID }, session), sentinels),
    insert: templateOf(
      compiler.compile(
        ENGINE_QUERIES.insert,
        { object: Object.fromEntries(INSERT_FIELDS) },
        session,
      ),
      sentinels,
    ),
  };
}

const templates = await buildTemplates();

class Unauthorized extends Error {}

/** HS256 verification by hand: signature, expiry, the Hasura claims' user id. */
function userFromToken(authorization: string | undefined): string {
  if (!authorization?.startsWith('Bearer ')) throw new Unauthorized('missing bearer token');
  const [head, payload, signature] = authorization.slice(7).split('.');
  if (!head || !payload || !signature) throw new Unauthorized('malformed token');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  if (header.alg !== 'HS256') throw new Unauthorized('unexpected alg');
  const expected = createHmac('sha256', jwtKey).update(`${head}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new Unauthorized('bad signature');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    exp?: number;
    'https://hasura.io/jwt/claims'?: Record<string, unknown>;
  };
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now())
    throw new Unauthorized('expired');
  const user = claims['https://hasura.io/jwt/claims']?.['x-hasura-user-id'];
  if (typeof user !== 'string') throw new Unauthorized('no user id');
  return user;
}

type Variables = { statuses?: string[]; id?: string; object?: Record<string, unknown> };

function inputsOf(user: string, variables: Variables): Record<string, unknown> {
  const inputs: Record<string, unknown> = { user, statuses: variables.statuses, id: variables.id };
  for (const [field] of INSERT_FIELDS)
    inputs[`object.${field}`] = variables.object?.[field] ?? null;
  return inputs;
}

async function run(query: QueryName, inputs: Record<string, unknown>): Promise<string> {
  const template: StatementTemplate = templates[query];
  const statement = statementOf(query, template.sql, bindAll(template, inputs));
  if (template.kind === 'query') {
    const result = await pool.query<{ data: string }>(statement);
    return result.rows[0]!.data;
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('hasura.user', $1, true)`, [
      template.sessionParam
        ? bindAll({ ...template, params: [template.sessionParam] }, inputs)[0]
        : '{}',
    ]);
    const result = await client.query<{ data: string }>(statement);
    await client.query('COMMIT');
    return `{"insert_transactions_one":${result.rows[0]!.data}}`;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function send(response: http.ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    void (async () => {
      const query = (request.url ?? '').slice(1) as QueryName;
      if (!Object.hasOwn(templates, query) || request.method !== 'POST')
        return send(response, 404, '{"errors":[{"message":"not found"}]}');
      const user = userFromToken(request.headers.authorization);
      const { variables } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        variables?: Variables;
      };
      const data = await run(query, inputsOf(user, variables ?? {}));
      send(response, 200, `{"data":${data}}`);
    })().catch((error: unknown) => {
      const unauthorized = error instanceof Unauthorized;
      const message = error instanceof Error ? error.message : String(error);
      send(response, unauthorized ? 401 : 500, JSON.stringify({ errors: [{ message }] }));
    });
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

/**
 * The extra row "pg direct": the same statements from a pool in this process, no HTTP and no
 * JWT, `concurrency` in flight for `durationMs` (shared/perf-reference/pg-direct-baseline.mjs).
 */
async function direct(message: Record<string, unknown>) {
  const query = message['query'] as QueryName;
  const requests = message['requests'] as Array<{ user: string; variables: Variables }>;
  const concurrency = Number(message['concurrency']);
  const durationMs = Number(message['durationMs']);
  const runTag = String(message['runTag']);
  const bound = requests.map((request) => inputsOf(request.user, request.variables));
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + durationMs;
  const MAX_OPERATIONS = 5_000_000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end && next < MAX_OPERATIONS) {
        const n = next++;
        let inputs = bound[n % bound.length]!;
        if (query === 'insert')
          inputs = { ...inputs, 'object.idempotency_key': `direct-${runTag}-${n}` };
        const t0 = performance.now();
        try {
          await run(query, inputs);
          latencies.push(performance.now() - t0);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    ...summarize(latencies),
    operations: latencies.length,
    errors,
    perSecond: latencies.length / seconds,
  };
}

serveIpc(
  {
    direct,
    templates: () => Promise.resolve(templates),
  },
  async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await pool.end();
  },
);
announceReady(`http://127.0.0.1:${port}`);
