import { botChatLink, buildStartParam, type StartParam } from '@app/shared/telegram';

import type { BotEnv } from './env.ts';

/*
 * Where the bot's buttons lead. A web_app button opens the mini-app's URL directly (Telegram
 * adds the launch data); the deep link rides along as `?startapp=`, which the mini-app reads
 * like a t.me/...?startapp= link's start parameter.
 */

export function miniappUrl(env: BotEnv, link: StartParam = {}): string {
  const param = buildStartParam(link);
  if (!param) return env.MINIAPP_URL;
  const url = new URL(env.MINIAPP_URL);
  url.searchParams.set('startapp', param);
  return url.toString();
}

/** A staff console page on the web portal. */
export const consoleUrl = (env: BotEnv, path: string): string =>
  `${env.PUBLIC_WEB_URL.replace(/\/$/, '')}${path}`;

/** The private chat with the bot, opened with `/start <payload>` (for buttons in groups). */
export const privateChatUrl = (username: string, payload = ''): string =>
  botChatLink(username, payload);
