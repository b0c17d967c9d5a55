import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { hashPassword } from '#src/crypto/password';
import { createEmailUser } from '#src/db/users';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { checkConfirmation, checkPasswordPolicy } from '#src/password-policy';
import { sendTokens, startSession } from '#src/session';
import { referralFromCookie } from '#src/routes/quick-auth/handler';
import { RegisterBody } from './schema.ts';

export async function register(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(RegisterBody, req.body);
  checkPasswordPolicy(body.password, body.email);
  checkConfirmation(body.password, body.confirmPassword);
  const info = requestInfo(req);
  await ctx.limit('register', info.ip, body.email);
  const referral = body.referralCode ?? referralFromCookie(req.get('cookie'));
  const user = await createEmailUser(ctx.db, {
    email: body.email,
    passwordHash: await hashPassword(body.password),
    locale: info.locale,
    ...(referral ? { referralCode: referral } : {}),
  });
  if (!user) throw new AuthError('email-already-in-use', { field: 'email' });
  sendTokens(ctx, res, await startSession(ctx, ctx.db, user.id, info));
}
