import type { Request, Response } from 'express';

import { startChallenge } from '#src/challenge';
import { requestInfo, type AppContext } from '#src/context';
import { verifyPassword } from '#src/crypto/password';
import { findUserByEmail } from '#src/db/users';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { sendTokens, startSession } from '#src/session';
import { LoginBody } from './schema.ts';

/**
 * E-mail and password. Unknown e-mails and accounts without a password cost one (dummy)
 * argon2 verify too, and all three failures answer the same `invalid-email-password`.
 * With 2FA on, the answer is a challenge ticket and a mailed code, nothing more.
 */
export async function login(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(LoginBody, req.body);
  const info = requestInfo(req);
  await ctx.limit('login', info.ip, body.email);
  const user = await findUserByEmail(ctx.db, body.email);
  const ok =
    user?.password_hash != null
      ? await verifyPassword(user.password_hash, body.password)
      : await ctx.dummyVerify();
  if (!ok || !user?.email) throw new AuthError('invalid-email-password');
  if (user.is_disabled) throw new AuthError('user-disabled');
  if (user.is_2fa) {
    res.json(await startChallenge(ctx, { ...user, email: user.email }, 'login_2fa', info));
    return;
  }
  sendTokens(ctx, res, await startSession(ctx, ctx.db, user.id, info));
}
