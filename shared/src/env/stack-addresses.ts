/*
 * Every address of the local stack, derived from its port variables, in one place
 * (docs/decisions/022-stack-addresses.md). The launcher hands these to each service it
 * starts; a service run alone derives its own defaults (e.g. the auth service's allowed
 * origins) from the same functions, so no other file repeats a default port.
 *
 * No imports: services that cannot reach this module through @app/shared/env yet import it
 * by its path, and the browser bundles never need it.
 */

/** The default port of each part of the stack (ARCHITECTURE.md), each overridable. */
export const DEFAULT_PORTS = {
  web: 3000,
  engine: 8080,
  auth: 4000,
  actions: 4100,
  bot: 4200,
  watchers: 4300,
  database: 54320,
} as const;

export type StackPart = keyof typeof DEFAULT_PORTS;
export type StackPorts = Record<StackPart, number>;

/** The environment variable through which each part takes its port. */
export const PORT_VARIABLES = {
  web: 'WEB_PORT',
  engine: 'HASURA_GRAPHQL_SERVER_PORT',
  auth: 'AUTH_PORT',
  actions: 'ACTIONS_PORT',
  bot: 'BOT_PORT',
  watchers: 'WATCHERS_PORT',
  database: 'EMBEDDED_DB_PORT',
} as const satisfies Record<StackPart, string>;

type EnvSource = Record<string, string | number | undefined>;

/** A port variable's value, else `fallback` (an unusable value counts as unset). */
export function portOr(value: string | number | undefined, fallback: number): number {
  const configured = Number(value);
  return Number.isInteger(configured) && configured > 0 && configured <= 65535
    ? configured
    : fallback;
}

/** One part's port from its variable, else its default. */
export const stackPort = (part: StackPart, env: EnvSource): number =>
  portOr(env[PORT_VARIABLES[part]], DEFAULT_PORTS[part]);

/** Every port of the stack from the environment. */
export function stackPorts(env: EnvSource): StackPorts {
  const parts = Object.keys(DEFAULT_PORTS) as StackPart[];
  return Object.fromEntries(parts.map((part) => [part, stackPort(part, env)])) as StackPorts;
}

/**
 * The origins a browser may open the portal (and mini-app) at: `localhost`, what people type
 * and what the launcher prints, and `127.0.0.1`, what the web server logs it listens on.
 * The first is the canonical one.
 */
export const webOrigins = (webPort: number): [string, string] => [
  `http://localhost:${webPort}`,
  `http://127.0.0.1:${webPort}`,
];

/** The portal's canonical address (PUBLIC_SITE_URL, PUBLIC_WEB_URL, links in mail). */
export const siteUrl = (webPort: number): string => webOrigins(webPort)[0];

export interface StackAddresses {
  /** Both origins of the portal; the auth service accepts calls from each. */
  webOrigins: [string, string];
  /** Canonical portal address: canonical/hreflang links, referral links, links in mail. */
  siteUrl: string;
  /** The mini-app (served by the web server), as the bot's buttons open it. */
  miniappUrl: string;
  /** The engine's GraphQL endpoint and the auth service, as the browser reaches them. */
  publicGraphqlUrl: string;
  publicAuthUrl: string;
  /** Service to service, over loopback: the engine calls actions and the bot's triggers. */
  actionsBaseUrl: string;
  botEventsUrl: string;
  /** The bot's sandbox page (development), which frames the mini-app. */
  botSandboxUrl: string;
}

export function stackAddresses(ports: StackPorts): StackAddresses {
  const site = siteUrl(ports.web);
  return {
    webOrigins: webOrigins(ports.web),
    siteUrl: site,
    miniappUrl: `${site}/telegram-app`,
    publicGraphqlUrl: `http://localhost:${ports.engine}/v1/graphql`,
    publicAuthUrl: `http://localhost:${ports.auth}`,
    actionsBaseUrl: `http://127.0.0.1:${ports.actions}`,
    botEventsUrl: `http://127.0.0.1:${ports.bot}/events`,
    botSandboxUrl: `http://localhost:${ports.bot}/`,
  };
}

/**
 * The environment variables the launcher derives for its children. A service's own defaults
 * follow the same functions, so a variable set here or left to the service agrees.
 */
export function derivedAddressVariables(ports: StackPorts): Record<string, string> {
  const addresses = stackAddresses(ports);
  return {
    PUBLIC_SITE_URL: addresses.siteUrl,
    PUBLIC_WEB_URL: addresses.siteUrl,
    MINIAPP_URL: addresses.miniappUrl,
    PUBLIC_GRAPHQL_URL: addresses.publicGraphqlUrl,
    PUBLIC_AUTH_URL: addresses.publicAuthUrl,
    ACTIONS_BASE_URL: addresses.actionsBaseUrl,
    BOT_EVENTS_URL: addresses.botEventsUrl,
    AUTH_CORS_ORIGINS: addresses.webOrigins.join(','),
    AUTH_WEB_ORIGIN: addresses.siteUrl,
    AUTH_MINIAPP_ORIGIN: addresses.siteUrl,
  };
}
