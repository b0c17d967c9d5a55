// Candidate (c) of `npm run bench:engine`: PostGraphile 4 in library mode behind node:http,
// on the benchmark's database, with a pool of BENCH_POOL_SIZE connections. Plain JavaScript
// run by node from this folder, so it resolves this folder's own node_modules (PostGraphile
// 4 needs graphql 15; the workspaces use graphql 16).
//
// Equivalence with the engine:
// - Every request carries the same user JWT; it is verified here (HS256 with node:crypto,
//   as the pg+http endpoint does). PostGraphile has no permission layer in this setup (no
//   RLS, no pgSettings role): the history query scopes to the user with
//   `condition: {userId}`, the by-pk lookup is by id alone, the insert names its userId.
// - Mutations get `hasura.user` in pgSettings, as the engine's set_config, so the
//   status-history trigger records who acted; queries get no settings (so no transaction).
// - simpleCollections 'both' (`allTransactionsList`), postgraphile-plugin-connection-filter
//   for `status in [...]`, and virtual foreign keys (smart tags) for the currency
//   relationships, which the product's metadata defines by hand (there is no FK in the DB).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

import graphileUtils from 'graphile-utils';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import ConnectionFilterPlugin from 'postgraphile-plugin-connection-filter';

let statements = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statements += 1;
  return originalQuery.apply(this, args);
};

const databaseUrl = process.env['BENCH_DATABASE_URL'];
const jwtSecret = process.env['BENCH_JWT_SECRET'];
if (!databaseUrl || !jwtSecret)
  throw new Error('BENCH_DATABASE_URL and BENCH_JWT_SECRET are required');
const jwtKey = JSON.parse(jwtSecret).key;
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(process.env['BENCH_POOL_SIZE'] ?? 8),
});

const tags = graphileUtils.makeJSONPgSmartTagsPlugin({
  version: 1,
  config: {
    class: {
      transactions: {
        tags: {
          foreignKey: [
            '(send_currency) references public.currencies (code)|@fieldName sendCurrencyInfo',
            '(receive_currency) references public.currencies (code)|@fieldName receiveCurrencyInfo',
          ],
        },
      },
    },
  },
});

class Unauthorized extends Error {}

function userFromToken(authorization) {
  if (!authorization || !authorization.startsWith('Bearer '))
    throw new Unauthorized('missing bearer token');
  const [head, payload, signature] = authorization.slice(7).split('.');
  if (!head || !payload || !signature) throw new Unauthorized('malformed token');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
  if (header.alg !== 'HS256') throw new Unauthorized('unexpected alg');
  const expected = createHmac('sha256', jwtKey).update(`${head}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new Unauthorized('bad signature');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now())
    throw new Unauthorized('expired');
  const user = claims['https://hasura.io/jwt/claims']?.['x-hasura-user-id'];
  if (typeof user !== 'string') throw new Unauthorized('no user id');
  return user;
}

const middleware = postgraphile(pool, 'public', {
  simpleCollections: 'both',
  appendPlugins: [ConnectionFilterPlugin, tags],
  graphileBuildOptions: {
    connectionFilterAllowedOperators: ['equalTo', 'in'],
    connectionFilterRelations: false,
    connectionFilterComputedColumns: false,
    connectionFilterSetofFunctions: false,
    connectionFilterArrays: false,
  },
  dynamicJson: true,
  ignoreRBAC: true,
  legacyRelations: 'omit',
  disableQueryLog: true,
  enableQueryBatching: false,
  graphiql: false,
  watchPg: false,
  retryOnInitFail: false,
  extendedErrors: ['errcode', 'detail'],
  pgSettings: (request) =>
    typeof request.body?.query === 'string' && request.body.query.trimStart().startsWith('mutation')
      ? {
          'hasura.user': JSON.stringify({
            'x-hasura-user-id': request.benchUser,
            'x-hasura-role': 'user',
          }),
        }
      : {},
});

const server = http.createServer((request, response) => {
  try {
    request.benchUser = userFromToken(request.headers.authorization);
  } catch (error) {
    const body = JSON.stringify({
      errors: [{ message: error instanceof Error ? error.message : String(error) }],
    });
    response.writeHead(401, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
    return;
  }
  middleware(request, response);
});

function send(message) {
  if (process.connected && process.send) process.send(message);
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await new Promise((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await middleware.release?.().catch(() => {});
  await pool.end().catch(() => {});
  process.exit(0);
}

process.on('disconnect', () => void shutdown());
process.on('message', (message) => {
  if (message.type === 'stop') {
    send({ id: message.id, ok: true, result: null });
    void shutdown();
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage();
    send({
      id: message.id,
      ok: true,
      result: {
        statements,
        cpuUserUs: cpu.user,
        cpuSystemUs: cpu.system,
        rssBytes: process.memoryUsage.rss(),
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
      },
    });
  } else {
    send({ id: message.id, ok: false, error: `unknown message type ${message.type}` });
  }
});

// Build the schema now (PostGraphile builds it lazily on the first request otherwise), so a
// failure shows at start-up rather than as the first request's dropped connection.
await middleware.getGraphQLSchema();
server.listen(0, '127.0.0.1', () => {
  send({ type: 'ready', url: `http://127.0.0.1:${server.address().port}/graphql` });
});
