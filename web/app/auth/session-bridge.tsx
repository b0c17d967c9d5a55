import { useEffect } from 'react';
import { useNavigate } from 'react-router';

import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '@app/client/auth/tokens.ts';

import { setAuthNavigator, useSession } from './session.ts';

/**
 * Starts the session in the browser (stored tokens, current user, refresh timer), lets it
 * navigate with the router, and keeps it in step with other tabs and with sleep: a tab coming
 * back checks its token at once instead of waiting for a timer that slept too.
 */
export function SessionBridge() {
  const navigate = useNavigate();

  useEffect(() => setAuthNavigator((to) => void navigate(to)), [navigate]);

  useEffect(() => {
    const session = useSession.getState();
    void session.init();
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === ACCESS_TOKEN_KEY || event.key === REFRESH_TOKEN_KEY) {
        useSession.getState().syncFromStorage();
      }
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void useSession.getState().getAccessToken();
    };
    window.addEventListener('storage', onStorage);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('storage', onStorage);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  return null;
}
