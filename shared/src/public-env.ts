/**
 * What the web server writes into every page for the browser (`window.__PUBLIC_ENV__`): service
 * addresses and public links, never a secret. `web/server/env.ts` builds it from its
 * configuration; both clients read it through `@app/client/env/public-env.ts`.
 */
export interface PublicEnv {
  PUBLIC_SITE_URL: string;
  PUBLIC_GRAPHQL_URL: string;
  PUBLIC_AUTH_URL: string;
  PUBLIC_CONTACT_EMAIL: string;
  PUBLIC_TELEGRAM_URL: string;
  PUBLIC_TELEGRAM_CHANNEL_URL: string;
  /** The bot's username: the mini-app shares `t.me/<bot>?start=ref_<name>`. */
  PUBLIC_TELEGRAM_BOT_USERNAME: string;
  PUBLIC_LIVE_CHAT_SRC?: string | undefined;
  PUBLIC_LIVE_CHAT_GLOBAL: string;
  /** The build the page came from: a client that sees another one reloads (build-check). */
  BUILD_ID: string;
}
