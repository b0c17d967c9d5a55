import type { PublicEnv } from '../../server/env.ts';

declare global {
  interface Window {
    __PUBLIC_ENV__?: PublicEnv;
  }
}

interface RootMatch {
  id: string;
  data?: unknown;
}

/** PUBLIC_SITE_URL from the root loader's data, for meta exports. */
export function siteUrlOf(matches: ReadonlyArray<RootMatch | undefined>): string | undefined {
  const root = matches.find((match) => match?.id === 'root');
  return (root?.data as { publicEnv?: PublicEnv } | undefined)?.publicEnv?.PUBLIC_SITE_URL;
}

/** The public env in the browser (set by the root layout before the app's scripts). */
export function browserEnv(): PublicEnv {
  const env = typeof window === 'undefined' ? undefined : window.__PUBLIC_ENV__;
  if (!env) throw new Error('the public env is not on the page');
  return env;
}
