import { miniappConfig } from '../env.ts';
import { mockTelegramClient } from './dev-client.ts';
import { readLaunch, startTelegram, type TelegramLaunch } from './sdk.ts';

export type Launch = { kind: 'telegram'; telegram: TelegramLaunch } | { kind: 'outside' };

/** A Telegram client is around: the native bridge, or Telegram Web's parent frame. */
const insideTelegramClient = (): boolean =>
  'TelegramWebviewProxy' in window || window.parent !== window;

/**
 * How the app was opened: inside Telegram (or its development imitation) with launch data, or
 * outside it. Runs before the router mounts, since Telegram's parameters arrive in the URL hash,
 * which the router would otherwise own.
 */
export function launch(): Launch {
  // Development outside Telegram: the server signed launch data for this page (the query may
  // pick `user`, `lang`, `theme` and `startapp`), and dev-client.ts plays Telegram (about 1 KB,
  // shipped always so a development launch costs no extra request).
  const { devLaunchParams } = miniappConfig();
  if (!insideTelegramClient() && devLaunchParams) mockTelegramClient(devLaunchParams);
  const telegram = readLaunch();
  if (!telegram || !startTelegram({ development: miniappConfig().devLaunch })) {
    return { kind: 'outside' };
  }
  return { kind: 'telegram', telegram };
}
