import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * CORS as Hasura answers it (HASURA_GRAPHQL_CORS_DOMAIN, default `*`): an allowed origin is
 * echoed back with credentials allowed, a preflight gets 204 with the methods and the headers
 * it asked for, cached for 20 days. Domains are a comma-separated list of origins, where
 * `https://*.example.com` allows that domain's subdomains (one level or more); `*` allows all.
 * With CORS disabled (HASURA_GRAPHQL_DISABLE_CORS) no header is added and browsers on other
 * origins are refused by their own rules.
 */

const ALLOWED_METHODS = 'GET,POST,PUT,PATCH,DELETE,OPTIONS';
const MAX_AGE_SECONDS = '1728000';

export type CorsPolicy = (origin: string) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The origins `domains` allows; undefined disables CORS. */
export function corsPolicy(domains: string | undefined): CorsPolicy | undefined {
  if (domains === undefined) return undefined;
  const entries = domains
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (entries.includes('*')) return () => true;
  const exact = new Set(
    entries.filter((entry) => !entry.includes('*')).map((e) => e.toLowerCase()),
  );
  const wildcards = entries
    .filter((entry) => entry.includes('*'))
    .map(
      (entry) =>
        new RegExp(
          `^${entry
            .toLowerCase()
            .split('*')
            .map(escapeRegExp)
            .join('[a-z0-9-]+(?:\\.[a-z0-9-]+)*')}$`,
        ),
    );
  return (origin) => {
    const lower = origin.toLowerCase();
    return exact.has(lower) || wildcards.some((pattern) => pattern.test(lower));
  };
}

/**
 * Adds the CORS headers a request's origin earns. Returns true when the request was a
 * preflight and has been answered.
 */
export function applyCors(
  policy: CorsPolicy | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const origin = request.headers.origin;
  const preflight =
    request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  if (policy && origin && policy(origin)) {
    response.setHeader('Access-Control-Allow-Origin', origin);
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    response.setHeader('Vary', 'Origin');
    if (preflight) {
      response.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const asked = request.headers['access-control-request-headers'];
      if (asked) response.setHeader('Access-Control-Allow-Headers', asked);
      response.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    }
  }
  if (!preflight) return false;
  response.writeHead(204);
  response.end();
  return true;
}
