import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { hashPassword } from '#src/crypto/password';
import { createEmailUser } from '#src/db/users';
import { parseBody } from '#src/http/validate';
import { checkConfirmation, checkPasswordPolicy } from '#src/password-policy';
import { sendTokens, startSession } from '#src/session';
import { referralFromCookie } from '#src/routes/quick-auth/handler';
import { knownAddressChallenge } from '#src/routes/quick-auth/known-address';
import { RegisterBody } from './schema.ts';

/**
 * A new address gets an unproven account with the password, and a session. A known one is
 * answered as /quick-auth answers it (a mailed code and its ticket; the password is not
 * applied), so the two endpoints say the same about which addresses exist (decision 016).
 * The password is hashed either way, so both answers cost the same.
 */
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
  if (user) {
    sendTokens(ctx, res, await startSession(ctx, ctx.db, user.id, info));
    return;
  }
  res.json(await knownAddressChallenge(ctx, req, body.email, referral, info));
}
