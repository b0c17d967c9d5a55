import { sign } from '@telegram-apps/init-data-node';

import { telegramTheme } from './themes.ts';

/** The Telegram user of a development launch that names none: the sandbox's developer. */
export const DEFAULT_DEV_LAUNCH_USER = 100000001;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The Telegram user id a development launch is for (`user` in the query, else the default). */
export function devLaunchUserId(query: Record<string, unknown>): number {
  const userId = Number(text(query['user']) ?? String(DEFAULT_DEV_LAUNCH_USER));
  return Number.isSafeInteger(userId) && userId > 0 ? userId : DEFAULT_DEV_LAUNCH_USER;
}

/** Anything that runs a statement: a pg pool or client. */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Whether this Telegram id is linked to a staff account (an administrator or a manager). A
 * development launch signs for anyone who asks, so it never signs for these (issue 19, point 2).
 */
export async function isStaffTelegramUser(db: Queryable, telegramId: number): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT EXISTS (
       SELECT 1 FROM public.portal_users u JOIN public.roles r ON r.user_id = u.id
        WHERE u.telegram_id = $1
     ) AS staff`,
    [telegramId],
  );
  return (rows[0] as { staff: boolean } | undefined)?.staff !== false;
}

/**
 * Launch parameters as Telegram puts them in the mini-app's URL hash, with init data signed by
 * `botToken` as Telegram signs it. The query may choose the user (`user`, a numeric id), the
 * language (`lang`), the theme (`theme=light`), the Telegram client (`platform`: ios, android,
 * macos, web or tdesktop, the default; its own palette), the deep link (`startapp`), and
 * `write=no` for a person who has not let the bot write to them. Callers check
 * first that the user is not staff (isStaffTelegramUser).
 */
/** The Telegram clients a development launch can play. */
const DEV_PLATFORMS = ['tdesktop', 'ios', 'android', 'macos', 'web'] as const;

export function devLaunchParams(query: Record<string, unknown>, botToken: string): string {
  const theme = text(query['theme']) === 'light' ? 'light' : 'dark';
  const asked = text(query['startapp']);
  // Telegram allows only these characters in a start parameter; anything else is left out.
  const startParam = asked && /^[A-Za-z0-9_-]{1,512}$/.test(asked) ? asked : undefined;
  const languageCode = text(query['lang']) ?? 'en';
  const initData = sign(
    {
      user: {
        id: devLaunchUserId(query),
        first_name: 'Developer',
        username: 'developer',
        language_code: languageCode.slice(0, 10),
        // `write=no`: a person who never started the bot (opened the app from a link).
        ...(text(query['write']) === 'no' ? {} : { allows_write_to_pm: true }),
      },
      chat_instance: '-1000000000000000000',
      chat_type: 'private',
      ...(startParam && /^[A-Za-z0-9_-]{1,512}$/.test(startParam)
        ? { start_param: startParam }
        : {}),
      // Telegram adds an Ed25519 signature for third parties; the bot token's HMAC is ours.
      signature: 'development-launch',
    },
    botToken,
    new Date(),
  );
  const platform =
    DEV_PLATFORMS.find((candidate) => candidate === text(query['platform'])) ?? 'tdesktop';
  const params = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: platform,
    tgWebAppThemeParams: JSON.stringify(telegramTheme(platform, theme)),
  });
  if (startParam) params.set('tgWebAppStartParam', startParam);
  return params.toString();
}
