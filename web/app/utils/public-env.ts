import type { PublicEnv } from '@app/shared/public-env';

interface RootMatch {
  id: string;
  data?: unknown;
}

/** PUBLIC_SITE_URL from the root loader's data, for meta exports. */
export function siteUrlOf(matches: ReadonlyArray<RootMatch | undefined>): string | undefined {
  const root = matches.find((match) => match?.id === 'root');
  return (root?.data as { publicEnv?: PublicEnv } | undefined)?.publicEnv?.PUBLIC_SITE_URL;
}
