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
import graphileUtils from 'graphile-utils';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import ConnectionFilterPlugin from 'postgraphile-plugin-connection-filter';

import { benchSettings, countStatements, createGuardedServer, serveChild } from './bench-child.js';

countStatements(pg);
const { databaseUrl, jwtKey, poolSize } = benchSettings();
const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });

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

const server = createGuardedServer(jwtKey, (request, response) => middleware(request, response));

// Build the schema now (PostGraphile builds it lazily on the first request otherwise), so a
// failure shows at start-up rather than as the first request's dropped connection.
await middleware.getGraphQLSchema();
serveChild(server, async () => {
  await middleware.release?.().catch(() => {});
  await pool.end();
});
