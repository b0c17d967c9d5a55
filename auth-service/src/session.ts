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
