import type { PublicEnv } from '@app/shared/public-env';

declare global {
  interface Window {
    __PUBLIC_ENV__?: PublicEnv;
  }
}

/** The public env in the browser (the server writes it into the page before the app's scripts). */
export function browserEnv(): PublicEnv {
  const env = typeof window === 'undefined' ? undefined : window.__PUBLIC_ENV__;
  if (!env) throw new Error('the public env is not on the page');
  return env;
}
