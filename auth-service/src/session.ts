import type { Response } from 'express';

import type { AppContext, RequestInfo } from './context.ts';
import { newOpaqueToken, sha256 } from './crypto/tokens.ts';
import type { Db, DbClient } from './db/index.ts';
import { insertFamily, type IssuedRow } from './db/refresh-tokens.ts';

export interface Tokens {
  is2fa: false;
  accessToken: string;
  refreshToken: string;
}

/** Spec section 4: the access-token cookie lives 604800 s, Secure, SameSite=Lax. */
export const ACCESS_COOKIE = 'accessToken';
const ACCESS_COOKIE_MAX_AGE_MS = 604_800_000;

export function tokensFor(ctx: AppContext, issued: IssuedRow, refreshToken: string): Tokens {
  return {
    is2fa: false,
    accessToken: ctx.jwt.sign({
      userId: issued.user_id,
      sessionId: issued.family_id,
      sessionEpoch: issued.session_epoch,
      roles: issued.roles,
    }),
    refreshToken,
  };
}

/** Starts a session (a new refresh-token family) and signs its first access token. */
export async function startSession(
  ctx: AppContext,
  db: Db | DbClient,
  userId: string,
  info: RequestInfo,
): Promise<Tokens> {
  const refreshToken = newOpaqueToken();
  const issued = await insertFamily(
    db,
    userId,
    sha256(refreshToken),
    ctx.env.AUTH_REFRESH_TOKEN_TTL,
    info,
  );
  return tokensFor(ctx, issued, refreshToken);
}

/**
 * The account a request is signed in to, when its access token is one of ours and its session
 * is still current: the sign-in (refresh-token family) not ended, the account enabled. A
 * signature alone is not enough here: tokens outlive logout and revocation by up to 15 min.
 */
export async function currentSession(
  ctx: AppContext,
  db: Db | DbClient,
  authorization: string | undefined,
  cookieHeader: string | undefined,
): Promise<{ userId: string; sessionId: string } | undefined> {
  const token = presentedAccessToken(ctx, authorization, cookieHeader);
  const claims = token === undefined ? undefined : ctx.jwt.verify(token);
  if (!claims) return undefined;
  const { rowCount } = await db.query(
    `SELECT 1 FROM auth.refresh_tokens t JOIN public.portal_users u ON u.id = t.user_id
      WHERE t.family_id = $1 AND t.user_id = $2 AND t.revoked_at IS NULL
        AND t.expires_at > now() AND NOT u.is_disabled
      LIMIT 1`,
    [claims.sessionId, claims.userId],
  );
  return rowCount ? claims : undefined;
}

/** The account of a refresh token that is live now (not rotated, revoked or expired). */
export async function ownerOfLiveRefreshToken(
  db: Db | DbClient,
  tokenHash: Buffer,
): Promise<string | undefined> {
  const { rows } = await db.query<{ user_id: string }>(
    `SELECT user_id FROM auth.refresh_tokens
      WHERE token_hash = $1 AND revoked_at IS NULL AND rotated_at IS NULL AND expires_at > now()`,
    [tokenHash],
  );
  return rows[0]?.user_id;
}

/** Answers with the tokens, and in cookie mode also sets the access-token cookie. */
export function sendTokens(ctx: AppContext, res: Response, tokens: Tokens): void {
  if (ctx.env.AUTH_ACCESS_TOKEN_COOKIE) {
    res.cookie(ACCESS_COOKIE, tokens.accessToken, {
      maxAge: ACCESS_COOKIE_MAX_AGE_MS,
      httpOnly: true,
      secure: true,
      sameSite: 'lax',
      path: '/',
      ...(ctx.env.AUTH_ACCESS_TOKEN_COOKIE_DOMAIN
        ? { domain: ctx.env.AUTH_ACCESS_TOKEN_COOKIE_DOMAIN }
        : {}),
    });
  }
  res.json(tokens);
}

export function clearAccessCookie(ctx: AppContext, res: Response): void {
  if (!ctx.env.AUTH_ACCESS_TOKEN_COOKIE) return;
  res.clearCookie(ACCESS_COOKIE, {
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    path: '/',
    ...(ctx.env.AUTH_ACCESS_TOKEN_COOKIE_DOMAIN
      ? { domain: ctx.env.AUTH_ACCESS_TOKEN_COOKIE_DOMAIN }
      : {}),
  });
}

/** The access token of a request: the Bearer header, else (cookie mode) the cookie. */
export function presentedAccessToken(
  ctx: AppContext,
  authorization: string | undefined,
  cookieHeader: string | undefined,
): string | undefined {
  const bearer = /^Bearer ([A-Za-z0-9_.-]{1,4096})$/i.exec(authorization ?? '');
  if (bearer) return bearer[1];
  if (!ctx.env.AUTH_ACCESS_TOKEN_COOKIE || !cookieHeader) return undefined;
  return readCookie(cookieHeader, ACCESS_COOKIE);
}

/** One cookie's value from a Cookie header (no decoding: our values are base64url). */
export function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
