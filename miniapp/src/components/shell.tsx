import { Spinner } from '@telegram-apps/telegram-ui';
import { Suspense, useEffect, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';

import { useLatest } from '@app/client/ui/use-latest.ts';

import { useDepth, useGoBack } from '../navigation.ts';
import { useSignIn } from '../sign-in.ts';
import { SETTINGS_PATH } from '../paths.ts';
import { showBackButton, showSettingsButton } from '../telegram/sdk.ts';
import { SignInFailed } from './sign-in-failed.tsx';

/**
 * Telegram's back button mirrors the app's navigation. It is hidden only on the exchange's first
 * step with nothing behind it, where Telegram's own close button is the way out.
 */
function useBackButton(): void {
  const [pathname] = useLocation();
  const search = useSearch();
  const depth = useDepth();
  const goBack = useLatest(useGoBack());
  const atStart = pathname === '/' && !new URLSearchParams(search).has('step') && depth === 0;
  useEffect(() => {
    if (atStart) return;
    // The button is set up once per screen; a press goes back as the history is then.
    return showBackButton(() => goBack.current());
  }, [atStart, goBack]);
}

/**
 * "Settings" in Telegram's own menu of the app opens the app's settings (the anti-phishing
 * phrase). Set up in a task of its own after the first screen's effects: the SDK's first use of
 * a function costs a check of the launch data, and that task is long enough on a slow phone.
 */
function useSettingsButton(): void {
  const [pathname, navigate] = useLocation();
  const atSettings = useLatest(pathname === SETTINGS_PATH);
  const open = useLatest(navigate);
  useEffect(() => {
    let undo: (() => void) | undefined;
    const timer = setTimeout(() => {
      undo = showSettingsButton(() => {
        if (!atSettings.current) open.current(SETTINGS_PATH);
      });
    }, 0);
    return () => {
      clearTimeout(timer);
      undo?.();
    };
  }, [atSettings, open]);
}

/** Scrolls to the top on a new screen (Telegram keeps the WebView's scroll otherwise). */
function useScrollReset(): void {
  const [pathname] = useLocation();
  const search = useSearch();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
}

export function Shell({ children }: { children: ReactNode }) {
  const signIn = useSignIn();
  useBackButton();
  useSettingsButton();
  useScrollReset();
  // Nothing works without the account, so a refused sign-in is the whole screen.
  if (signIn.status === 'failed')
    return <SignInFailed code={signIn.code} retryAfter={signIn.retryAfter} />;
  return (
    <main className="screen">
      <Suspense fallback={<CenteredSpinner />}>{children}</Suspense>
    </main>
  );
}

export function CenteredSpinner() {
  return (
    <div className="centered" role="status">
      <Spinner size="l" />
    </div>
  );
}
