/*
 * The product stack the end-to-end tests run against: the launcher (`npm start`'s script) on a
 * fresh embedded database, every service on its own port so a developer's `npm start` can keep
 * running, and the portal and the mini-app served from the production builds `npm start` makes.
 */

/*
 * Below Linux's ephemeral range (32768-60999): the launcher polls each service's health before
 * it listens, and a connection to a free port inside that range can connect to itself and
 * then hold the port. Side by side, so an offset moves the whole stack into any free range of
 * ten ports (E2E_PORT_OFFSET=-19600: 3400-3407).
 */
const BASE_PORTS = {
  web: 23000,
  engine: 23001,
  auth: 23002,
  actions: 23003,
  bot: 23004,
  database: 23005,
  smtp: 23006,
  watchers: 23007,
  /** The local EVM chain the stack's watcher follows (tests/fixtures/local-evm-node.ts). */
  evm: 23008,
} as const;

/**
 * E2E_PORT_OFFSET moves every port (two runs on one machine, e.g. CI beside a developer); any
 * two offsets at least 10 apart keep the runs apart (multiples of 1000, up to 9000, as before).
 */
const offset = Number(process.env['E2E_PORT_OFFSET'] ?? 0);

export const E2E_PORTS = Object.fromEntries(
  Object.entries(BASE_PORTS).map(([name, port]) => [name, port + offset]),
) as Record<keyof typeof BASE_PORTS, number>;

export const WEB_URL = `http://localhost:${E2E_PORTS.web}`;
export const GRAPHQL_URL = `http://localhost:${E2E_PORTS.engine}/v1/graphql`;
export const AUTH_URL = `http://localhost:${E2E_PORTS.auth}`;
export const ADMIN_SECRET = 'dev-only-hasura-admin-secret';
/** The local EVM chain's JSON-RPC. */
export const EVM_URL = `http://127.0.0.1:${E2E_PORTS.evm}`;
/** The stack's embedded PostgreSQL, for tests that look at or move data directly. */
export const DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${E2E_PORTS.database}/postgres?sslmode=disable`;

/**
 * The launcher's environment for the e2e stack: what a person sets to run the stack on other
 * ports (the seven port variables) and the chain its watcher follows, nothing more. Every address, the auth service's allowed
 * origins included, is the launcher's own derivation (decision 022), so a mismatch fails here
 * as it would for them.
 */
export function stackEnvironment(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'development',
    EMBEDDED_DB_DIR: dataDir,
    EMBEDDED_DB_PORT: String(E2E_PORTS.database),
    WEB_PORT: String(E2E_PORTS.web),
    HASURA_GRAPHQL_SERVER_PORT: String(E2E_PORTS.engine),
    AUTH_PORT: String(E2E_PORTS.auth),
    ACTIONS_PORT: String(E2E_PORTS.actions),
    BOT_PORT: String(E2E_PORTS.bot),
    WATCHERS_PORT: String(E2E_PORTS.watchers),
    // What an operator sets to have ETH payments seen: the network's JSON-RPC endpoint.
    CHAIN_ENDPOINTS: `ERC20=${EVM_URL}`,
    SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
    LOG_LEVEL: 'warn',
    // Many accounts come from one address here; the limits themselves are tested in
    // tests/integration/auth.
    AUTH_RATE_LIMIT_FACTOR: '100',
  };
}
