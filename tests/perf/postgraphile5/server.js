// Candidate (d) of `npm run bench:engine`: PostGraphile 5 (Grafast) behind node:http through
// grafserv's node adaptor, on the benchmark's database, with a pool of BENCH_POOL_SIZE
// connections. Plain JavaScript run by node from this folder, so it resolves this folder's own
// node_modules (its own graphql 16 and Grafast tree, pinned by this folder's lockfile). It
// speaks the same child-process protocol as ../postgraphile/server.js (version 4): the same
// env vars, `ready` with its URL, then 'stats' and 'stop'.
//
// Equivalence with the engine and with version 4 (the same GraphQL documents answer here):
// - Every request carries the same user JWT; it is verified here (HS256 with node:crypto,
//   as the pg+http endpoint does). No permission layer (no RLS, no role): the history query
//   scopes to the user with `condition: {userId}`, the by-pk lookup is by id alone, the insert
//   names its userId.
// - Mutations get `hasura.user` in pgSettings (from `grafast.context`), as the engine's
//   set_config, so the status-history trigger records who acted; queries get no settings (so
//   no transaction).
// - The Amber preset with version 4's naming kept (`id` not renamed to `rowId`, the node id
//   field is `nodeId`), simple collections "both" (the `list` behavior beside `connection`:
//   `allTransactionsList`), every attribute usable in `condition` and `orderBy` and no RBAC
//   (version 4's ignoreIndexes and ignoreRBAC), postgraphile-plugin-connection-filter for
//   `status in [...]`, and virtual foreign keys (smart tags) for the currency relationships,
//   which the product's metadata defines by hand (there is no FK in the DB).
// - Named prepared statements are @dataplan/pg's default; the orchestrator sets
//   DATAPLAN_PG_PREPARED_STATEMENT_CACHE_SIZE=0 on PGlite (one session shared by every
//   connection, where the names would collide).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makeJSONPgSmartTagsPlugin } from 'postgraphile/utils';
import { PostGraphileConnectionFilterPreset } from 'postgraphile-plugin-connection-filter';

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

const tags = makeJSONPgSmartTagsPlugin({
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

/** Version 4's names and collections, as ../postgraphile/server.js has them. */
const V4ShapePlugin = {
  name: 'BenchV4ShapePlugin',
  version: '0.0.0',
  after: ['PgAttributesPlugin'],
  inflection: {
    replace: {
      // Amber renames a column `id` to `rowId` (the node id takes `id`); version 4 does not.
      _attributeName(previous, options, details) {
        const name = previous(details);
        if (details.skipRowId || name !== 'row_id') return name;
        const attribute = details.codec.attributes[details.attributeName];
        const base = attribute.extensions?.tags?.name || details.attributeName;
        return base.toLowerCase() === 'id' && !details.codec.isAnonymous ? 'id' : name;
      },
      nodeIdFieldName() {
        return 'nodeId';
      },
    },
  },
  schema: {
    globalBehavior: (behavior) => [
      behavior,
      'connection',
      'resource:connection',
      'list',
      'resource:list',
      '-singularRelation:resource:connection',
      '-singularRelation:resource:list',
      'condition:attribute:filterBy',
      'attribute:orderBy',
    ],
  },
};

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

/** The operation the request runs is a mutation (the bench sends one operation per document). */
function isMutation(args) {
  return args.document.definitions.some(
    (definition) =>
      definition.kind === 'OperationDefinition' &&
      (!args.operationName || definition.name?.value === args.operationName) &&
      definition.operation === 'mutation',
  );
}

const preset = {
  extends: [PostGraphileAmberPreset, PostGraphileConnectionFilterPreset],
  plugins: [tags, V4ShapePlugin],
  // Version 4's ignoreRBAC and ignoreIndexes (its defaults in ../postgraphile/server.js).
  disablePlugins: ['PgRBACPlugin', 'PgIndexBehaviorsPlugin'],
  pgServices: [makePgService({ pool, schemas: ['public'], pubsub: false })],
  schema: {
    connectionFilterAllowedOperators: ['equalTo', 'in'],
    connectionFilterRelations: false,
    connectionFilterComputedColumns: false,
    connectionFilterSetofFunctions: false,
    connectionFilterArrays: false,
    dontSwallowErrors: true,
  },
  grafast: {
    explain: false,
    context: (requestContext, args) =>
      isMutation(args)
        ? {
            pgSettings: {
              'hasura.user': JSON.stringify({
                'x-hasura-user-id': requestContext.node?.req?.benchUser,
                'x-hasura-role': 'user',
              }),
            },
          }
        : {},
  },
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false, websockets: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const handler = serv.createHandler();

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
  void handler(request, response);
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
  await serv.release?.().catch?.(() => {});
  await pgl.release().catch?.(() => {});
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

// Build the schema now (it is built lazily on the first request otherwise), so a failure shows
// at start-up rather than as the first request's error.
await pgl.getSchema();
server.listen(0, '127.0.0.1', () => {
  send({ type: 'ready', url: `http://127.0.0.1:${server.address().port}/graphql` });
});
