import { createHmac } from 'node:crypto';

/** The development HS256 key the engine and the auth service share by default. */
export const DEV_JWT_KEY = 'dev-only-jwt-signing-key-0123456789abcdef';
export const DEV_JWT_SECRET = JSON.stringify({ type: 'HS256', key: DEV_JWT_KEY });

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A compact JWS; `alg: 'none'` yields an unsigned token, for refusal tests. */
export function signHs256(
  payload: object,
  key = DEV_JWT_KEY,
  alg: 'HS256' | 'none' = 'HS256',
): string {
  const head = base64url(JSON.stringify({ alg, typ: 'JWT' }));
  const body = base64url(JSON.stringify(payload));
  if (alg === 'none') return `${head}.${body}.`;
  const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

/** Claims as the auth service issues them: `userId` plus Hasura's namespace. */
export function userClaims(userId: string, roles: string[] = ['user'], expiresIn = 900) {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: userId,
    userId,
    iat: now,
    exp: now + expiresIn,
    'https://hasura.io/jwt/claims': {
      'x-hasura-user-id': userId,
      'x-hasura-default-role': roles[0],
      'x-hasura-allowed-roles': roles,
      // The epoch of a new account's sessions (decision 016): the user's permissions compare it.
      'x-hasura-session-epoch': '0',
    },
  };
}

/** The headers of a request made as `userId` with the role `user` (a token from the dev key). */
export const bearerFor = (userId: string) => ({
  authorization: `Bearer ${signHs256(userClaims(userId))}`,
});
