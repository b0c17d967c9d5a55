import type { Request, Response } from 'express';

import type { AppContext } from '#src/context';
import { sha256 } from '#src/crypto/tokens';
import { transaction } from '#src/db/index';
import { familyOf, revokeFamily } from '#src/db/refresh-tokens';
import { endAllSessions } from '#src/db/users';
import { parseBody } from '#src/http/validate';
import { clearAccessCookie, ownerOfLiveRefreshToken } from '#src/session';
import { LogoutBody } from './schema.ts';

/**
 * Revokes the whole family of the presented refresh token (the sign-in), whatever state that
 * token is in; its access tokens are refused by the actions from then on. With `all`, and a
 * live token (a used-up one would let an old copy sign everyone out), every session of the
 * account ends, access tokens included (decision 016). Always 200, so the answer says nothing
 * about the token.
 */
export async function logout(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(LogoutBody, req.body);
  const presented = sha256(body.refreshToken);
  if (body.all) {
    await transaction(ctx.db, async (client) => {
      const owner = await ownerOfLiveRefreshToken(client, presented);
      if (owner) await endAllSessions(client, owner);
    });
  }
  const family = await familyOf(ctx.db, presented);
  if (family) await revokeFamily(ctx.db, family);
  clearAccessCookie(ctx, res);
  res.json({ ok: true });
}
