import { createHmac, timingSafeEqual, type KeyObject, createSecretKey } from 'node:crypto';

import * as z from 'zod';

/*
 * Access tokens are signed with node:crypto directly rather than jsonwebtoken: about 8 µs per
 * HS256 signature against about 390 µs, which matters on /refresh_tokens
 * (docs/decisions/005-jwt-with-node-crypto.md). The code is small because everything is pinned:
 * one algorithm, our own claims, no key discovery.
 */

const HS_HASH = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;
type HsAlgorithm = keyof typeof HS_HASH;

/** The subset of Hasura's HASURA_GRAPHQL_JWT_SECRET that a signer needs. */
const JwtSecretJson = z.object({
  type: z.enum(['HS256', 'HS384', 'HS512'], {
    error: 'the auth service signs with a shared key: type must be HS256, HS384 or HS512',
  }),
  key: z.string().min(32, 'key must be at least 32 characters'),
  claims_namespace: z.string().min(1).optional(),
  claims_format: z.enum(['json', 'stringified_json']).optional(),
  issuer: z.string().min(1).optional(),
  audience: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
});

export const HASURA_CLAIMS_NAMESPACE = 'https://hasura.io/jwt/claims';
/** `iss` when the engine's config names none. */
export const DEFAULT_ISSUER = 'exchange-auth-service';

export interface JwtSigner {
  /**
   * A signed access token for the user; roles come from the database, never the request.
   * `sessionEpoch` is the account's `session_epoch` when signing: permissions and actions
   * accept only the current one (docs/decisions/016-unproven-accounts-and-revocation.md).
   */
  sign(input: {
    userId: string;
    sessionId: string;
    sessionEpoch: number;
    roles: readonly string[];
  }): string;
  /** Verifies a token this service issued; returns undefined for anything else. */
  verify(token: string): { userId: string; sessionId: string } | undefined;
  readonly ttlSeconds: number;
}

/**
 * The GraphQL roles a user's staff roles grant (docs/decisions/007-graphql-roles.md). A staff
 * admin becomes `administrator`, a least-privilege role: Hasura's `admin` is the unrestricted
 * role of services and is never put in a user's token.
 */
const STAFF_GRAPHQL_ROLES: Readonly<Record<string, string>> = {
  admin: 'administrator',
  manager: 'manager',
};

export function graphqlRoles(roleTypes: readonly string[]): string[] {
  return [...new Set(roleTypes.flatMap((roleType) => STAFF_GRAPHQL_ROLES[roleType] ?? []))];
}

export function createJwtSigner(
  secretJson: string,
  ttlSeconds: number,
  now: () => number = Date.now,
): JwtSigner {
  const config = JwtSecretJson.parse(JSON.parse(secretJson));
  const algorithm: HsAlgorithm = config.type;
  const key: KeyObject = createSecretKey(Buffer.from(config.key, 'utf8'));
  const namespace = config.claims_namespace ?? HASURA_CLAIMS_NAMESPACE;
  const issuer = config.issuer ?? DEFAULT_ISSUER;
  const audience = Array.isArray(config.audience) ? config.audience[0] : config.audience;
  const header = Buffer.from(JSON.stringify({ alg: algorithm, typ: 'JWT' })).toString('base64url');
  const mac = (input: string) => createHmac(HS_HASH[algorithm], key).update(input).digest();

  return {
    ttlSeconds,
    sign({ userId, sessionId, sessionEpoch, roles }) {
      const iat = Math.floor(now() / 1000);
      const hasura = {
        'x-hasura-user-id': userId,
        'x-hasura-default-role': 'user',
        'x-hasura-allowed-roles': ['user', ...graphqlRoles(roles)],
        // Session variables, so Hasura hands them to permissions and to actions: the sign-in
        // (refresh-token family) and the account's epoch this token belongs to.
        'x-hasura-session-id': sessionId,
        'x-hasura-session-epoch': String(sessionEpoch),
      };
      const payload = {
        sub: userId,
        userId,
        sid: sessionId,
        iss: issuer,
        ...(audience === undefined ? {} : { aud: audience }),
        iat,
        exp: iat + ttlSeconds,
        [namespace]: config.claims_format === 'stringified_json' ? JSON.stringify(hasura) : hasura,
      };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      const signingInput = `${header}.${body}`;
      return `${signingInput}.${mac(signingInput).toString('base64url')}`;
    },
    verify(token) {
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      const [head, body, signature] = parts as [string, string, string];
      // The header must be byte-for-byte ours: this pins `alg` (no `none`, no key confusion).
      if (head !== header || !/^[A-Za-z0-9_-]+$/.test(signature)) return undefined;
      const expected = mac(`${head}.${body}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      let claims: unknown;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      if (typeof claims !== 'object' || claims === null) return undefined;
      const { iss, exp, iat, userId, sid } = claims as Record<string, unknown>;
      const nowSeconds = now() / 1000;
      if (iss !== issuer || typeof exp !== 'number' || typeof iat !== 'number') return undefined;
      if (!(nowSeconds < exp) || iat > nowSeconds + 30) return undefined;
      if (typeof userId !== 'string' || typeof sid !== 'string') return undefined;
      return { userId, sessionId: sid };
    },
  };
}
