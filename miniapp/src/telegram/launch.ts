import { miniappConfig } from '../env.ts';
import { readLaunch, startTelegram, type TelegramLaunch } from './sdk.ts';

export type Launch = { kind: 'telegram'; telegram: TelegramLaunch } | { kind: 'outside' };

/** A Telegram client is around: the native bridge, or Telegram Web's parent frame. */
const insideTelegramClient = (): boolean =>
  'TelegramWebviewProxy' in window || window.parent !== window;

/**
 * Development outside Telegram: the server signs launch data with the development bot token
 * (web/server/miniapp.ts), so the real quick-auth path runs. The page's own query may choose
 * the user, language, theme and deep link (`?user=…&lang=uk&theme=light&startapp=…`).
 */
async function devLaunchParams(): Promise<string | undefined> {
  const { basePath } = miniappConfig();
  try {
    const response = await fetch(`${basePath}/dev-launch${window.location.search}`, {
      headers: { accept: 'text/plain' },
    });
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How the app was opened: inside Telegram (or its development imitation) with launch data, or
 * outside it. Runs before the router mounts, since Telegram's parameters arrive in the URL hash,
 * which the router would otherwise own.
 */
export async function launch(): Promise<Launch> {
  if (!insideTelegramClient() && miniappConfig().devLaunch) {
    const [params, client] = await Promise.all([devLaunchParams(), import('./dev-client.ts')]);
    if (params) client.mockTelegramClient(params);
  }
  const telegram = readLaunch();
  if (!telegram || !startTelegram()) return { kind: 'outside' };
  return { kind: 'telegram', telegram };
}
