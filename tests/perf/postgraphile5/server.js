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
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makeJSONPgSmartTagsPlugin } from 'postgraphile/utils';
import { PostGraphileConnectionFilterPreset } from 'postgraphile-plugin-connection-filter';

import {
  benchSettings,
  countStatements,
  createGuardedServer,
  serveChild,
} from '../postgraphile/bench-child.js';

countStatements(pg);
const { databaseUrl, jwtKey, poolSize } = benchSettings();
const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });

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

const server = createGuardedServer(jwtKey, (request, response) => void handler(request, response));

// Build the schema now (it is built lazily on the first request otherwise), so a failure shows
// at start-up rather than as the first request's error.
await pgl.getSchema();
serveChild(server, async () => {
  await serv.release?.().catch?.(() => {});
  await pgl.release().catch?.(() => {});
  await pool.end();
});
