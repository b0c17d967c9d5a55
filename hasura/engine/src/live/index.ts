/** Multiplexed live queries: Hasura's subscription execution (one SQL per query shape per interval). */
export { checkSubscriptionRoots, compileLiveQuery, isLiveQueryPlan } from './compile.ts';
export {
  LiveQueryMultiplexer,
  liveQueryStats,
  type LiveQueryStatementEvent,
  type LiveQueryStats,
  type LiveSubscription,
} from './multiplexer.ts';
