/*
 * The environment the reliability checks give the product's services: what scripts/start.ts
 * (the launcher) gives every service, built from scratch rather than from the caller's
 * environment, so that a developer's DATABASE_URL or HASURA_GRAPHQL_* cannot leak into a
 * service under test. Each starter adds its own differences on top.
 */

/** Enough to run node and nothing else of the caller's. */
export function baseEnvironment(): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'USER']) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return base;
}

/** The values the launcher fills in; the names follow its variables. */
export interface LauncherSettings {
  databaseUrl: string;
  /** Where the engine reaches the actions service (ACTIONS_BASE_URL). */
  actionsUrl: string;
  actionsSecret: string;
  /** Where the engine delivers the bot's event triggers (BOT_EVENTS_URL). */
  botEventsUrl: string;
  botEventsSecret: string;
  /** Where a browser reaches the engine and the auth service (PUBLIC_GRAPHQL_URL, PUBLIC_AUTH_URL). */
  publicGraphqlUrl: string;
  publicAuthUrl: string;
  /** The portal, for links in mails and bot messages; the mini-app lives below it. */
  publicWebUrl: string;
}

/** scripts/start.ts's serviceEnv for `settings`, in development mode at log level info. */
export function serviceEnvironment(settings: LauncherSettings): Record<string, string> {
  return {
    ...baseEnvironment(),
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    DATABASE_URL: settings.databaseUrl,
    ACTIONS_BASE_URL: settings.actionsUrl,
    ACTIONS_SECRET: settings.actionsSecret,
    BOT_EVENTS_URL: settings.botEventsUrl,
    BOT_EVENTS_SECRET: settings.botEventsSecret,
    PUBLIC_GRAPHQL_URL: settings.publicGraphqlUrl,
    PUBLIC_AUTH_URL: settings.publicAuthUrl,
    PUBLIC_WEB_URL: settings.publicWebUrl,
    MINIAPP_URL: `${settings.publicWebUrl}/telegram-app`,
  };
}
