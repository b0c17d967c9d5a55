import { sign } from '@telegram-apps/init-data-node';

import { TELEGRAM_THEMES } from './telegram-themes.ts';

/**
 * Launch parameters as Telegram puts them in the mini-app's URL hash, with init data signed by
 * `botToken` as Telegram signs it. The query may choose the user (`user`, a numeric id), the
 * language (`lang`), the theme (`theme=light`) and the deep link (`startapp`).
 */
export function devLaunchParams(query: Record<string, unknown>, botToken: string): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const userId = Number(text(query['user']) ?? '100000001');
  const theme = text(query['theme']) === 'light' ? 'light' : 'dark';
  const asked = text(query['startapp']);
  // Telegram allows only these characters in a start parameter; anything else is left out.
  const startParam = asked && /^[A-Za-z0-9_-]{1,512}$/.test(asked) ? asked : undefined;
  const languageCode = text(query['lang']) ?? 'en';
  const initData = sign(
    {
      user: {
        id: Number.isSafeInteger(userId) && userId > 0 ? userId : 100000001,
        first_name: 'Developer',
        username: 'developer',
        language_code: languageCode.slice(0, 10),
        allows_write_to_pm: true,
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
  const params = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'tdesktop',
    tgWebAppThemeParams: JSON.stringify(TELEGRAM_THEMES[theme]),
  });
  if (startParam) params.set('tgWebAppStartParam', startParam);
  return params.toString();
}
