/**
 * Request headers → Session, with the Hasura GraphQL Engine v2 rules (server/src-lib/Hasura/
 * Server/Auth.hs and Auth/JWT.hs): admin secret, JWT, unauthorized role, or no auth at all.
 */
import { hash, timingSafeEqual } from 'node:crypto';

import { HasuraError } from '../errors.ts';
import { executeJsonPath, encodeJsonPath } from './json-path.ts';
import {
  describeClaimsLocation,
  type ClaimsMapValue,
  type JwtClaimsMap,
  type JwtConfig,
} from './jwt-config.ts';
import { jsonTypeName } from '../json-type-name.ts';

import { createJwtVerifier, type JwtVerifier, type VerifiedJwt } from './jwt-verify.ts';
import type { Session } from './session.ts';

/** Request headers with lower-cased names. */
export type RequestHeaders = Readonly<Record<string, string | undefined>>;

/** Resolves the session of one request; throws HasuraError. */
export type SessionResolver = (headers: RequestHeaders) => Session;

export interface SessionResolverConfig {
  /** HASURA_GRAPHQL_ADMIN_SECRET. */
  adminSecret?: string | undefined;
  /** HASURA_GRAPHQL_JWT_SECRET, parsed with `parseJwtConfig`. Requires `adminSecret`. */
  jwt?: JwtConfig | undefined;
  /** HASURA_GRAPHQL_UNAUTHORIZED_ROLE: role of requests without credentials. Requires `adminSecret`. */
  unauthorizedRole?: string | undefined;
  /** Verified-token cache size (default 10,000; 0 disables). */
  jwtCacheSize?: number | undefined;
  /** Clock in milliseconds for JWT time checks (tests). Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** An authentication configuration the engine must refuse to start with. */
export class AuthConfigError extends Error {
  override name = 'AuthConfigError';
}

export const ADMIN_SECRET_HEADER = 'x-hasura-admin-secret';
export const ACCESS_KEY_HEADER = 'x-hasura-access-key';
export const ROLE_HEADER = 'x-hasura-role';
export const ADMIN_ROLE = 'admin';
const ALLOWED_ROLES_CLAIM = 'x-hasura-allowed-roles';
const DEFAULT_ROLE_CLAIM = 'x-hasura-default-role';
const SESSION_VARIABLE_PREFIX = 'x-hasura-';
const REGISTERED_CLAIMS = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

const REQUIRES_ADMIN_SECRET =
  ' requires --admin-secret (HASURA_GRAPHQL_ADMIN_SECRET) or --access-key (HASURA_GRAPHQL_ACCESS_KEY) to be set';

/** What a verified token grants, independent of the request's role header. */
export interface JwtSessionClaims {
  allowedRoles: readonly string[];
  defaultRole: string;
  /** The other x-hasura-* claims (lower-cased names, string values). */
  variables: Readonly<Record<string, string>>;
  /**
   * Hasura checks the requested role before the value types of the other claims; a non-string
   * claim is reported only once the role is accepted.
   */
  variablesError?: HasuraError | undefined;
  expiresAt?: Date | undefined;
}

export function createSessionResolver(config: SessionResolverConfig): SessionResolver {
  const { adminSecret, jwt, unauthorizedRole } = config;
  if (adminSecret !== undefined && adminSecret === '') {
    throw new AuthConfigError('HASURA_GRAPHQL_ADMIN_SECRET must not be empty');
  }
  if (unauthorizedRole !== undefined && unauthorizedRole === '') {
    throw new AuthConfigError('HASURA_GRAPHQL_UNAUTHORIZED_ROLE must not be empty');
  }
  if (adminSecret === undefined) {
    // Hasura refuses to start in these cases rather than silently serving everyone as admin.
    if (jwt !== undefined) {
      throw new AuthConfigError(
        `Fatal Error : --jwt-secret (HASURA_GRAPHQL_JWT_SECRET)${REQUIRES_ADMIN_SECRET}`,
      );
    }
    if (unauthorizedRole !== undefined) {
      throw new AuthConfigError(
        `Fatal Error: --unauthorized-role (HASURA_GRAPHQL_UNAUTHORIZED_ROLE)${REQUIRES_ADMIN_SECRET}`,
      );
    }
    // No authentication configured: everyone is admin, and may pick any role by header.
    return (headers) => headerSession(headers, true);
  }

  const secretDigest = hash('sha512', adminSecret, 'buffer');
  const jwtMode =
    jwt === undefined
      ? undefined
      : {
          config: jwt,
          verifier: createJwtVerifier(jwt, {
            ...(config.jwtCacheSize !== undefined && { cacheSize: config.jwtCacheSize }),
            ...(config.now !== undefined && { now: config.now }),
          }),
          derived: new WeakMap<VerifiedJwt, JwtSessionClaims | HasuraError>(),
        };

  return (headers) => {
    const sentSecret = headers[ADMIN_SECRET_HEADER] ?? headers[ACCESS_KEY_HEADER];
    if (sentSecret !== undefined) {
      // Compare digests: equal lengths, constant time, and the secret's length is not revealed.
      const sentDigest = hash('sha512', sentSecret, 'buffer');
      if (!timingSafeEqual(sentDigest, secretDigest)) {
        throw new HasuraError(
          'access-denied',
          `invalid "${ADMIN_SECRET_HEADER}"/"${ACCESS_KEY_HEADER}"`,
          '$',
          401,
        );
      }
      return headerSession(headers, true);
    }
    if (jwtMode !== undefined) {
      return jwtSession(
        jwtMode.config,
        jwtMode.verifier,
        jwtMode.derived,
        headers,
        unauthorizedRole,
      );
    }
    if (unauthorizedRole !== undefined) return headerSession(headers, false, unauthorizedRole);
    throw new HasuraError(
      'access-denied',
      `"${ADMIN_SECRET_HEADER}"/"${ACCESS_KEY_HEADER}" required, but not found`,
      '$',
      401,
    );
  };
}

/**
 * A session whose variables are the request's x-hasura-* headers: admin (role from the
 * `x-hasura-role` header, else `admin`) or a fixed role (the unauthorized role).
 */
function headerSession(headers: RequestHeaders, isAdmin: boolean, fixedRole?: string): Session {
  const variables: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower.startsWith(SESSION_VARIABLE_PREFIX)) variables[lower] = value;
  }
  const requested = variables[ROLE_HEADER];
  const role = fixedRole ?? (requested !== undefined && requested !== '' ? requested : ADMIN_ROLE);
  delete variables[ADMIN_SECRET_HEADER];
  delete variables[ACCESS_KEY_HEADER];
  variables[ROLE_HEADER] = role;
  return { role, variables, isAdmin };
}

interface TokenLookup {
  token?: string;
}

/** Finds the token where the configuration says it travels; `{}` when the request has none. */
function findToken(config: JwtConfig, headers: RequestHeaders): TokenLookup {
  const where = config.header;
  switch (where.type) {
    case 'Authorization': {
      const value = headers['authorization'];
      if (value === undefined) return {};
      const words = value.split(/[ \t\r\n\f\v]+/).filter((w) => w !== '');
      if (words.length !== 2 || words[0] !== 'Bearer') {
        throw new HasuraError('invalid-headers', 'Malformed Authorization header');
      }
      return { token: words[1]! };
    }
    case 'Cookie': {
      const value = headers['cookie'];
      if (value === undefined) return {};
      const found = parseCookies(value).filter(([name]) => name === where.name);
      if (found.length > 1)
        throw new HasuraError('invalid-headers', 'Could not verify JWT: Multiple JWTs found');
      return found.length === 1 ? { token: found[0]![1] } : {};
    }
    case 'CustomHeader': {
      const value = headers[where.name];
      return value === undefined ? {} : { token: value };
    }
  }
}

/** Cookie header pairs the way Hasura's server (Spock) reads them: whitespace dropped, URL-decoded. */
export function parseCookies(header: string): [string, string][] {
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  const pairs: [string, string][] = [];
  for (const part of header.replace(/\s+/g, '').split(';')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    pairs.push(
      eq < 0 ? [decode(part), ''] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))],
    );
  }
  return pairs;
}

function jwtSession(
  config: JwtConfig,
  verifier: JwtVerifier,
  derivedCache: WeakMap<VerifiedJwt, JwtSessionClaims | HasuraError>,
  headers: RequestHeaders,
  unauthorizedRole: string | undefined,
): Session {
  const { token } = findToken(config, headers);
  if (token === undefined) {
    if (unauthorizedRole !== undefined) return headerSession(headers, false, unauthorizedRole);
    throw new HasuraError(
      'invalid-headers',
      "Missing 'Authorization' or 'Cookie' header in JWT authentication mode",
    );
  }
  const verified = verifier.verify(token);
  let derived = derivedCache.get(verified);
  if (derived === undefined) {
    try {
      derived = extractJwtSessionClaims(config, verified);
    } catch (error) {
      if (!HasuraError.is(error)) throw error;
      derived = error;
    }
    derivedCache.set(verified, derived);
  }
  if (derived instanceof HasuraError) throw copyOf(derived);

  const requested = headers[ROLE_HEADER];
  const role = requested !== undefined && requested !== '' ? requested : derived.defaultRole;
  if (!derived.allowedRoles.includes(role)) {
    throw new HasuraError('access-denied', 'Your requested role is not in allowed roles');
  }
  if (derived.variablesError !== undefined) throw copyOf(derived.variablesError);
  const session: Session = {
    role,
    variables: { ...derived.variables, [ROLE_HEADER]: role },
    isAdmin: false,
  };
  if (derived.expiresAt !== undefined) session.expiresAt = new Date(derived.expiresAt.getTime());
  return session;
}

/** A fresh error for each request, so no caller can alter the cached one. */
function copyOf(error: HasuraError): HasuraError {
  return new HasuraError(error.code, error.message, error.path, error.status);
}

function invalidClaims(message: string): HasuraError {
  return new HasuraError('jwt-invalid-claims', message);
}

/** Aeson's message for a value that is not a non-empty role name. */
function roleNameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `parsing String failed, expected String, but encountered ${jsonTypeName(value)}`;
  if (value === '') return 'empty string not allowed';
  return undefined;
}

function roleListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value))
    return `parsing [] failed, expected Array, but encountered ${jsonTypeName(value)}`;
  for (const item of value) {
    const problem = roleNameProblem(item);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function parseRoleList(value: unknown, hint: string): string[] {
  const problem = roleListProblem(value);
  if (problem !== undefined)
    throw invalidClaims(`invalid ${ALLOWED_ROLES_CLAIM}; ${hint}: ${problem}`);
  return value as string[];
}

function parseRole(value: unknown, hint: string): string {
  const problem = roleNameProblem(value);
  if (problem !== undefined)
    throw invalidClaims(`invalid ${DEFAULT_ROLE_CLAIM}; ${hint}: ${problem}`);
  return value as string;
}

function missingRoleClaim(claim: string): HasuraError {
  return new HasuraError('jwt-missing-role-claims', `JWT claim does not contain ${claim}`);
}

/**
 * The x-hasura-* claims of a verified token (lower-cased names, raw JSON values), found through
 * `claims_namespace`, `claims_namespace_path` or `claims_map`. Throws `jwt-invalid-claims`.
 */
export function locateHasuraClaims(config: JwtConfig, verified: VerifiedJwt): Map<string, unknown> {
  const claims = verified.claims;
  const location = config.claims;
  if (location.kind === 'claims_map') return applyClaimsMap(location.map, claims);

  let value: unknown;
  if (location.kind === 'namespace') {
    const ns = location.namespace;
    value = !REGISTERED_CLAIMS.has(ns) && Object.hasOwn(claims, ns) ? claims[ns] : undefined;
    if (value === undefined) throw invalidClaims(`claims key: '${ns}' not found`);
  } else {
    const unregistered: Record<string, unknown> = {};
    for (const name of Object.keys(claims))
      if (!REGISTERED_CLAIMS.has(name)) unregistered[name] = claims[name];
    value = executeJsonPath(unregistered, location.path);
    if (value === undefined) {
      throw invalidClaims(
        `claims not found at claims_namespace_path: '${encodeJsonPath(location.path)}'`,
      );
    }
  }

  let object: unknown = value;
  if (location.format === 'stringified_json') {
    if (typeof value !== 'string')
      throw invalidClaims('expecting a string when claims_format is stringified_json');
    try {
      object = JSON.parse(value);
    } catch {
      object = undefined;
    }
    if (object === null || typeof object !== 'object' || Array.isArray(object)) {
      throw invalidClaims(
        `expecting stringified json at: '${describeClaimsLocation(location)}', but found: ${value}`,
      );
    }
  } else if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidClaims('expecting a json object when claims_format is json');
  }

  const result = new Map<string, unknown>();
  for (const [name, v] of Object.entries(object as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (lower.startsWith(SESSION_VARIABLE_PREFIX)) result.set(lower, v);
  }
  return result;
}

type Lookup<T> = { found: true; value: unknown } | { found: false; fallback: T | undefined };

function lookupClaim<T>(
  spec: ClaimsMapValue<T>,
  claims: Readonly<Record<string, unknown>>,
): Lookup<T> {
  if (spec.kind === 'static') return { found: true, value: spec.value };
  const value = executeJsonPath(claims, spec.path);
  return value === undefined ? { found: false, fallback: spec.default } : { found: true, value };
}

/** `claims_map`: each claim found by its JSON path in the whole payload, else its default. */
function applyClaimsMap(
  map: JwtClaimsMap,
  claims: Readonly<Record<string, unknown>>,
): Map<string, unknown> {
  const allowed = lookupClaim(map.allowedRoles, claims);
  let allowedRoles: string[];
  if (allowed.found) allowedRoles = parseRoleList(allowed.value, 'should be a list of roles');
  else if (allowed.fallback !== undefined) allowedRoles = allowed.fallback;
  else throw missingRoleClaim(ALLOWED_ROLES_CLAIM);

  const dflt = lookupClaim(map.defaultRole, claims);
  let defaultRole: string;
  if (dflt.found) defaultRole = parseRole(dflt.value, 'should be a role');
  else if (dflt.fallback !== undefined) defaultRole = dflt.fallback;
  else throw missingRoleClaim(DEFAULT_ROLE_CLAIM);

  const result = new Map<string, unknown>([
    [ALLOWED_ROLES_CLAIM, allowedRoles],
    [DEFAULT_ROLE_CLAIM, defaultRole],
  ]);
  for (const [name, spec] of Object.entries(map.other)) {
    const other = lookupClaim(spec, claims);
    if (other.found) result.set(name, other.value);
    else if (other.fallback !== undefined) result.set(name, other.fallback);
    else throw invalidClaims(`JWT claim from claims_map, ${name} not found`);
  }
  return result;
}

/** Roles and session variables granted by a verified token. Throws the JWT claim errors. */
export function extractJwtSessionClaims(
  config: JwtConfig,
  verified: VerifiedJwt,
): JwtSessionClaims {
  const claims = locateHasuraClaims(config, verified);

  if (!claims.has(ALLOWED_ROLES_CLAIM)) throw missingRoleClaim(ALLOWED_ROLES_CLAIM);
  const allowedRoles = parseRoleList(claims.get(ALLOWED_ROLES_CLAIM), 'should be a list of roles');
  if (!claims.has(DEFAULT_ROLE_CLAIM)) throw missingRoleClaim(DEFAULT_ROLE_CLAIM);
  const defaultRole = parseRole(claims.get(DEFAULT_ROLE_CLAIM), 'should be a single role name');

  // Session variable values are text in Hasura v2: a number, boolean, list or object claim is
  // an error, not converted (write arrays as Postgres literals, e.g. "{1,2}").
  const variables: Record<string, string> = {};
  let variablesError: HasuraError | undefined;
  for (const [name, value] of claims) {
    if (name === ALLOWED_ROLES_CLAIM || name === DEFAULT_ROLE_CLAIM) continue;
    if (name === ADMIN_SECRET_HEADER || name === ACCESS_KEY_HEADER) continue;
    if (typeof value === 'string') variables[name] = value;
    else
      variablesError ??= invalidClaims(
        `x-hasura-* claims: parsing Text failed, expected String, but encountered ${jsonTypeName(value)}`,
      );
  }
  return {
    allowedRoles,
    defaultRole,
    variables: Object.freeze(variables),
    variablesError,
    expiresAt: verified.exp === undefined ? undefined : new Date(verified.exp * 1000),
  };
}
