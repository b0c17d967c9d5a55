// What both PostGraphile candidates of `npm run bench:engine` (./server.js, version 4, and
// ../postgraphile5/server.js) share: counting statements, the JWT check in front, and the
// child-process protocol of tests/perf/servers/child.ts (`ready` with the URL, then 'stats'
// and 'stop'). Node built-ins only, so each server imports it from its own install.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

let statements = 0;

/** Counts every statement the candidate's node-postgres sends (its own copy of `pg`). */
export function countStatements(pg) {
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(...args) {
    statements += 1;
    return originalQuery.apply(this, args);
  };
}

/** BENCH_DATABASE_URL, the HS256 key of BENCH_JWT_SECRET and BENCH_POOL_SIZE. */
export function benchSettings() {
  const databaseUrl = process.env['BENCH_DATABASE_URL'];
  const jwtSecret = process.env['BENCH_JWT_SECRET'];
  if (!databaseUrl || !jwtSecret)
    throw new Error('BENCH_DATABASE_URL and BENCH_JWT_SECRET are required');
  return {
    databaseUrl,
    jwtKey: JSON.parse(jwtSecret).key,
    poolSize: Number(process.env['BENCH_POOL_SIZE'] ?? 8),
  };
}

class Unauthorized extends Error {}

/** HS256 verification by hand, as the pg+http endpoint does: the Hasura claims' user id. */
function userFromToken(authorization, jwtKey) {
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

/** An HTTP server that answers 401 without a valid JWT, else sets `request.benchUser` and calls `handle`. */
export function createGuardedServer(jwtKey, handle) {
  return http.createServer((request, response) => {
    try {
      request.benchUser = userFromToken(request.headers.authorization, jwtKey);
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
    handle(request, response);
  });
}

function send(message) {
  if (process.connected && process.send) process.send(message);
}

/**
 * Answers the orchestrator's 'stats' and 'stop' (then `release` and exit), and listens on a free
 * loopback port, announcing `ready` with the GraphQL URL.
 */
export function serveChild(server, release) {
  let stopping = false;
  async function shutdown() {
    if (stopping) return;
    stopping = true;
    await new Promise((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await release().catch(() => {});
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
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', url: `http://127.0.0.1:${server.address().port}/graphql` });
  });
}
