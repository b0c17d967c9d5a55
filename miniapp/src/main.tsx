// telegram-ui's styles first: the app's own rules come after and win (ARCHITECTURE).
import '@telegram-apps/telegram-ui/dist/styles.css';
import './styles.css';

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { LANGUAGE_TAGS, localeFromTag, splitLocalePath, type Locale } from '@app/shared/i18n';
import { parseStartParam } from '@app/shared/telegram';
import { createI18n, loadCatalog } from '@app/client/i18n/i18n.ts';

import { App } from './app.tsx';
import { reloadForNewBuild } from './components/route-error.tsx';
import { deepLinkTarget, launchIdOf, openDeepLink } from './deep-link.ts';
import { miniappConfig } from './env.ts';
import { preloadCatalog } from './exchange/catalog.ts';
import { setSessionLocale } from './session.ts';
import { startSignIn } from './sign-in.ts';
import { launch } from './telegram/launch.ts';
import { finishTelegramSetup } from './telegram/sdk.ts';

/**
 * The language: the path's prefix when there is one (/ru/telegram-app), else Telegram's
 * `language_code` (uk is ua, ru is ru, anything else English), else the browser's.
 */
function chooseLocale(basePath: string, languageCode: string | undefined): Locale {
  const { locale, path } = splitLocalePath(basePath);
  if (path !== basePath) return locale;
  return localeFromTag(languageCode ?? navigator.language) ?? 'en';
}

// Vite's preload of a lazy part failed (a deployment replaced it): fetch the new build once.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadForNewBuild((event as Event & { payload?: unknown }).payload)) event.preventDefault();
});

/** Runs `task` when the browser is idle, or after a second at the latest. */
function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: 1000 });
  else setTimeout(task, 100);
}

async function main(): Promise<void> {
  const { basePath } = miniappConfig();
  // The reference data does not wait for Telegram or the sign-in.
  void preloadCatalog().catch(() => undefined);
  const launched = launch();
  const telegram = launched.kind === 'telegram' ? launched.telegram : undefined;
  const locale = chooseLocale(basePath, telegram?.languageCode);
  setSessionLocale(locale);
  document.documentElement.lang = LANGUAGE_TAGS[locale];

  const deepLink = parseStartParam(telegram?.startParam);
  if (telegram) openDeepLink(basePath, deepLinkTarget(deepLink), launchIdOf(telegram.initData));

  await loadCatalog(locale);
  const i18n = createI18n(locale);
  // index.html's title is English; Telegram shows this one in the app's header on some clients.
  document.title = i18n.t('miniapp:title');
  const root = createRoot(document.getElementById('root')!);
  // A transition: React renders the first screen in slices, yielding to the browser between
  // them, instead of one long task (Lighthouse's blocking time on a slow phone).
  startTransition(() =>
    root.render(
      <StrictMode>
        <App
          launch={launched}
          i18n={i18n}
          basePath={basePath}
          // The first screen needs no account: the sign-in waits until the page is idle (at
          // most a second), so it does not compete with the first screen on a slow phone.
          onFirstPaint={() => {
            if (!telegram) return;
            finishTelegramSetup();
            whenIdle(() => startSignIn(telegram, deepLink.referralCode));
          }}
        />
      </StrictMode>,
    ),
  );
}

void main();
