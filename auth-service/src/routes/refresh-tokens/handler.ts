import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { newOpaqueToken, sha256 } from '#src/crypto/tokens';
import { transaction } from '#src/db/index';
import { explainOrGrace, rotate } from '#src/db/refresh-tokens';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { sendTokens, tokensFor } from '#src/session';
import { RefreshBody } from './schema.ts';

/**
 * Rotates the refresh token (one statement when it is live) and signs a new access token
 * with the roles as the database holds them now. Failures are one `invalid-refresh-token`;
 * a replayed token also revokes its family.
 */
export async function refreshTokens(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(RefreshBody, req.body);
  const info = requestInfo(req);
  const presented = sha256(body.refreshToken);
  const next = newOpaqueToken();
  const ttl = ctx.env.AUTH_REFRESH_TOKEN_TTL;
  const rotated = await rotate(ctx.db, presented, sha256(next), ttl, info);
  if (rotated) {
    sendTokens(ctx, res, tokensFor(ctx, rotated, next));
    return;
  }
  const outcome = await transaction(ctx.db, (client) =>
    explainOrGrace(client, presented, sha256(next), ttl, info),
  );
  if ('issued' in outcome) {
    sendTokens(ctx, res, tokensFor(ctx, outcome.issued, next));
    return;
  }
  if (outcome.failure === 'reused') {
    req.log.warn({ family: outcome.familyId }, 'refresh token reused; family revoked');
  }
  throw new AuthError('invalid-refresh-token');
}
