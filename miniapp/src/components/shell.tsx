import { Spinner } from '@telegram-apps/telegram-ui';
import { Suspense, useEffect } from 'react';
import {
  NavigationType,
  Outlet,
  useLocation,
  useNavigate,
  useNavigation,
  useNavigationType,
} from 'react-router';

import { useSignIn } from '../sign-in.ts';
import { showBackButton } from '../telegram/sdk.ts';
import { SignInFailed } from './sign-in-failed.tsx';

/** How many in-app screens lie behind this one (pushes minus pops in this launch). */
let depth = 0;

/**
 * Telegram's back button mirrors the app's navigation: it goes back in the app's history, or to
 * the exchange when there is nothing behind (a screen opened by a deep link). Hidden only on the
 * exchange's first step with nothing behind it, where Telegram's own close button is the way out.
 */
function useBackButton(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  useEffect(() => {
    if (navigationType === NavigationType.Push) depth += 1;
    else if (navigationType === NavigationType.Pop) depth = Math.max(0, depth - 1);
    const atStart = location.pathname === '/' && !new URLSearchParams(location.search).has('step');
    if (atStart && depth === 0) return;
    return showBackButton(() => {
      if (depth > 0) void navigate(-1);
      else void navigate('/', { replace: true });
    });
    // Every move counts once (a replace, such as typing an amount, changes nothing behind).
  }, [location.key, location.pathname, location.search, navigationType, navigate]);
}

/** Scrolls to the top on a new screen (Telegram keeps the WebView's scroll otherwise). */
function useScrollReset(): void {
  const { pathname, search } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
}

export function Shell() {
  const signIn = useSignIn();
  const navigation = useNavigation();
  useBackButton();
  useScrollReset();
  // Nothing works without the account, so a refused sign-in is the whole screen.
  if (signIn.status === 'failed') return <SignInFailed code={signIn.code} />;
  return (
    <main className="screen" aria-busy={navigation.state === 'loading'}>
      <Suspense fallback={<CenteredSpinner />}>
        <Outlet />
      </Suspense>
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
