import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * What the Hasura conformance runner runs, and everything it deliberately does not.
 *
 * Every group of the corpus (`../shared/conformance/hasura/groups/`) must be listed here; the
 * runner refuses to start when a group on disk is missing from this list or a listed group or
 * case does not exist, so nothing is ever left out silently. A skip always carries its reason.
 */

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The corpus lives in the design folder beside the checkout (`../shared`), not in the repo. */
export const defaultCorpusDir = path.resolve(repoRoot, '..', 'shared', 'conformance', 'hasura');

export const reportPath = path.join(repoRoot, 'bench-results', 'conformance.json');

/** The webhook environment of the pytest harness, which the metadata templates expect. */
export const EVENTS_PORT = 5592;
export const ACTIONS_PORT = 5593;
export const webhookEnvironment = {
  EVENT_WEBHOOK_HANDLER: `http://localhost:${EVENTS_PORT}`,
  ACTION_WEBHOOK_HANDLER: `http://localhost:${ACTIONS_PORT}`,
  EVENT_WEBHOOK_HEADER: 'MyEnvValue',
} as const;

/** A case gets this long (plus its own waits; see `caseTimeoutMs`) before it is failed. */
export const CASE_TIMEOUT_MS = 10_000;
/** Starting an engine (schema introspection, metadata) may take longer than a case. */
export const ENGINE_START_TIMEOUT_MS = 60_000;
/** Short refetch interval so live-query steps do not wait a second each. */
export const LIVE_QUERY_REFETCH_MS = 200;
/** The acceptance bar: the run fails below this pass rate of the non-skipped cases. */
export const PASS_RATE_BAR = 0.9;

/** Server settings a case needs where its group.yaml states them in prose, not as data. */
export interface ServerOverride {
  /** HASURA_GRAPHQL_UNAUTHORIZED_ROLE for this case (null: unset). */
  unauthorizedRole?: string | null;
  /** Configure HASURA_GRAPHQL_JWT_SECRET with the runner's RS512 key. */
  jwt?: boolean;
  /** Where the setting comes from. */
  reason: string;
}

export interface GroupConfig {
  /** Why the whole group is skipped. Unset: the group runs. */
  skip?: string;
  /** Case file (as group.yaml names it, `cases/x.yaml`) -> why it is skipped. */
  skipCases?: Record<string, string>;
  /**
   * Case file -> request number (1-based, as printed `#N`) -> why that one request of the case
   * is not sent. The case still runs and counts; the skip is listed in its notes.
   */
  skipRequests?: Record<string, Record<number, string>>;
  /** Case file -> server settings group.yaml describes in prose. */
  caseServer?: Record<string, ServerOverride>;
  /** Why the group cannot run on embedded PGlite; it is then skipped there with this reason. */
  pgliteUnsupported?: string;
}

/**
 * All 30 groups, in run order (queries, auth, mutations, subscriptions, actions, events).
 * The skips hold only what truly cannot pass (a corpus defect) or lies outside the product (an
 * action response transform); every other case is something the engine is meant to do,
 * including the four `/v1alpha1/graphql` cases (same API, errors keep their HTTP status) and
 * the backend_only insert cases.
 */
export const groups: Record<string, GroupConfig> = {
  query_basic: {},
  query_boolexp_basic: {},
  query_boolexp_search: {},
  query_order_by: {},
  query_limits: {},
  query_offset: {},
  query_aggregations: {},
  query_agg_perm: {},
  query_permissions: {},
  unauthorized_role: {
    caseServer: {
      'cases/unauthorized_role.yaml': {
        unauthorizedRole: 'anonymous',
        reason:
          'group.yaml note: admin secret set, HASURA_GRAPHQL_UNAUTHORIZED_ROLE=anonymous, no JWT',
      },
      'cases/cookie_header_absent_unauth_role_set.yaml': {
        unauthorizedRole: 'anonymous',
        reason:
          'group.yaml note: admin secret set, HASURA_GRAPHQL_UNAUTHORIZED_ROLE=anonymous (pytest also runs it with a JWT secret; the runner uses the plain variant)',
      },
      'cases/cookie_header_absent_unauth_role_not_set.yaml': {
        unauthorizedRole: null,
        jwt: true,
        reason:
          'group.yaml note: admin secret + HASURA_GRAPHQL_JWT_SECRET (RS512), NO unauthorized role',
      },
    },
  },
  auth_jwt: {},
  auth_admin_secret: {},
  mutation_insert_basic: {},
  mutation_insert_onconflict: {},
  mutation_insert_constraints: {},
  mutation_insert_permissions: {},
  mutation_update_basic: {
    skipCases: {
      'cases/author_set_name.yaml':
        'corpus defect: author.location became jsonb, but seed.sql stores the GeoJSON point without a "crs" member while the expected response still carries the {"crs": {"type": "name", ...}} that PostGIS ST_AsGeoJSON added; no correct engine can return it (mutation_delete_basic seeds crs and is fine)',
    },
  },
  mutation_update_permissions: {},
  mutation_delete_basic: {},
  mutation_delete_permissions: {},
  mutation_delete_constraints: {},
  subscriptions: {},
  actions_sync: {
    skipRequests: {
      'cases/get_user_by_email_nested_success.yaml': {
        9: "outside the product: get_user_by_email_nested_transformed has a Kriti response_transform; the corpus README lists action transforms as left out, and the product's actions use none",
      },
    },
  },
  events_basic: {},
  events_insert_only: {},
  events_selected_cols: {},
  events_selected_payload: {},
  events_retry_conf: {},
  events_headers: {},
  events_webhook_env: {},
};
