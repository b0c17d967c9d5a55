import type { Request, Response } from 'express';

import { completeChallenge } from '#src/challenge';
import { requestInfo, type AppContext } from '#src/context';
import { sha256 } from '#src/crypto/tokens';
import { parseBody } from '#src/http/validate';
import { sendTokens } from '#src/session';
import { LoginWith2faBody } from './schema.ts';

export async function loginWith2fa(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(LoginWith2faBody, req.body);
  const info = requestInfo(req);
  // Per ticket as well as per address; the challenge itself also dies after 5 wrong codes.
  await ctx.limit('code', info.ip, sha256(body.token).toString('hex'));
  sendTokens(ctx, res, await completeChallenge(ctx, body.token, body.code, info));
}
