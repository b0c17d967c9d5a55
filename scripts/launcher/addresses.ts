/*
 * The addresses the launcher gives each service: derived from the six port variables by
 * shared/src/env/stack-addresses.ts (the one source of truth, decision 022), unless the person
 * starting the stack set a variable explicitly.
 */
import { derivedAddressVariables, stackAddresses, stackPorts } from '@app/shared/env';

export { DEFAULT_PORTS } from '@app/shared/env';

type EnvSource = Record<string, string | undefined>;

/** A variable as set by a person: an empty string counts as unset, as services read it. */
const given = (env: EnvSource, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * The address variables for every child: each one the person set is kept; the rest are
 * derived from the ports. A portal address the person set (PUBLIC_SITE_URL or PUBLIC_WEB_URL,
 * e.g. behind a proxy) is what mail links, the mini-app URL and the auth service's origins
 * follow; the portal's own local origins stay allowed beside it.
 */
export function launcherAddressEnv(env: EnvSource): Record<string, string> {
  const ports = stackPorts(env);
  const derived = derivedAddressVariables(ports);
  const site =
    given(env, 'PUBLIC_SITE_URL') ?? given(env, 'PUBLIC_WEB_URL') ?? derived['PUBLIC_SITE_URL']!;
  const siteOrigin = originOf(site);
  const local = stackAddresses(ports).webOrigins;
  const followingSite: Record<string, string> = {
    PUBLIC_SITE_URL: site,
    PUBLIC_WEB_URL: site,
    MINIAPP_URL: `${site.replace(/\/$/, '')}/telegram-app`,
    ...(siteOrigin
      ? {
          AUTH_CORS_ORIGINS: [...new Set([siteOrigin, ...local])].join(','),
          AUTH_WEB_ORIGIN: siteOrigin,
          AUTH_MINIAPP_ORIGIN: siteOrigin,
        }
      : {}),
  };
  const candidates = { ...derived, ...followingSite };
  return Object.fromEntries(
    Object.entries(candidates).map(([name, value]) => [name, given(env, name) ?? value]),
  );
}
