import type { ExchangeCatalog } from '@app/shared/exchange';
import { browserEnv } from '@app/client/env/public-env.ts';

/*
 * What the server that serves the mini-app tells it (web/server/miniapp.ts writes both into the
 * page): the portal's public env (service URLs; never a secret) and the mini-app's own settings.
 */

export interface MiniappConfig {
  /**
   * Development only: outside Telegram, ask the server for validly signed launch data (the
   * development bot token signs it) instead of showing "open this in Telegram".
   */
  devLaunch: boolean;
  /** Where the mini-app lives: `/telegram-app`, or `/ru/telegram-app` and `/ua/telegram-app`. */
  basePath: string;
  /** With devLaunch: launch data signed for this page's query, as Telegram would put it. */
  devLaunchParams?: string;
  /** The exchange catalog as the server had it (absent when the engine did not answer). */
  catalog?: ExchangeCatalog;
}

declare global {
  interface Window {
    __MINIAPP__?: MiniappConfig;
  }
}

export function miniappConfig(): MiniappConfig {
  const config = window.__MINIAPP__;
  if (!config) throw new Error('the mini-app settings are not on the page');
  return config;
}

/** The portal's public env (`window.__PUBLIC_ENV__`), as the portal's own modules read it. */
export { browserEnv };
