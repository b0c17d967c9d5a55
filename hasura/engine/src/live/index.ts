/** Multiplexed live queries: Hasura's subscription execution (one SQL per query shape per interval). */
export {
  LIVE_QUERY_MARKER,
  checkSubscriptionRoots,
  compileLiveQuery,
  isLiveQueryPlan,
  multiplexedStatement,
  type CompiledLiveQuery,
} from './compile.ts';
export {
  LiveQueryMultiplexer,
  liveQueryStats,
  type LiveQueryOptions,
  type LiveQuerySink,
  type LiveQueryStatementEvent,
  type LiveQueryStats,
  type LiveSubscription,
  type Queryable,
} from './multiplexer.ts';
export { paramJson, postgresArrayLiteral, variablesRow } from './params.ts';
