import type { Request, Response } from 'express';

import type { AppContext } from '#src/context';
import { sha256 } from '#src/crypto/tokens';
import { familyOf, revokeFamily } from '#src/db/refresh-tokens';
import { parseBody } from '#src/http/validate';
import { clearAccessCookie } from '#src/session';
import { LogoutBody } from './schema.ts';

/**
 * Revokes the whole family of the presented refresh token (the sign-in), whatever state that
 * token is in. Always 200, so the answer says nothing about the token.
 */
export async function logout(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(LogoutBody, req.body);
  const family = await familyOf(ctx.db, sha256(body.refreshToken));
  if (family) await revokeFamily(ctx.db, family);
  clearAccessCookie(ctx, res);
  res.json({ ok: true });
}
