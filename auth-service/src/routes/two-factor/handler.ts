import type { Request, Response } from 'express';

import { startChallenge } from '#src/challenge';
import { requestInfo, type AppContext, type RequestInfo } from '#src/context';
import { verifyPassword } from '#src/crypto/password';
import { codeHash, sameDigest, sha256 } from '#src/crypto/tokens';
import { transaction } from '#src/db/index';
import { consumeChallenge, MAX_CODE_ATTEMPTS, takeAttempt } from '#src/db/login-codes';
import { setTwoFactor } from '#src/db/two-factor';
import { findUserById } from '#src/db/users';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { twoFactorChangedMail } from '#src/mail/templates';
import { presentedAccessToken } from '#src/session';
import { TwoFactorBody } from './schema.ts';

/**
 * Turns two-factor sign-in on or off (issue 19): an access token alone is not enough, as it
 * was when the user role could update `is_2fa` through GraphQL. An account with a password
 * proves it again; one without (quick-auth) confirms with a code mailed to its proven address.
 * Every password check and every code (asked or sent back) is limited per address and per
 * account as login is; a change is announced by e-mail.
 */
export async function twoFactor(ctx: AppContext, req: Request, res: Response) {
  const accessToken = presentedAccessToken(ctx, req.get('authorization'), req.get('cookie'));
  const claims = accessToken === undefined ? undefined : ctx.jwt.verify(accessToken);
  if (!claims) throw new AuthError('invalid-access-token');
  const body = parseBody(TwoFactorBody, req.body);
  const info = requestInfo(req);
  const user = await findUserById(ctx.db, claims.userId);
  if (!user || user.is_disabled) throw new AuthError('invalid-access-token');
  // The second factor is a mailed code, so it needs an address the account has proven: none
  // (Telegram) or an unproven one (decision 016: such an account may not set it) is refused.
  if (!user.email || !user.is_verified_email) throw new AuthError('two-factor-needs-email');

  if (user.password_hash) {
    // Before the limit: asking without a password (how a client learns it needs one) checks
    // no secret and sends nothing, so it costs no attempt.
    if (!body.password) throw new AuthError('field-required', { field: 'password' });
    await ctx.limit('twoFactor', info.ip, user.id);
    if (!(await verifyPassword(user.password_hash, body.password))) {
      throw new AuthError('invalid-current-password', { field: 'password' });
    }
    const changed = await setTwoFactor(ctx.db, user.id, body.enabled);
    answer(ctx, res, user.id, body.enabled, changed, info);
    return;
  }

  // No password: a code to the proven address.
  await ctx.limit('twoFactor', info.ip, user.id);
  const purpose = body.enabled ? 'two_factor_on' : 'two_factor_off';
  if (body.token === undefined && body.code === undefined) {
    res.json(await startChallenge(ctx, { ...user, email: user.email }, purpose, info));
    return;
  }
  if (body.token === undefined) throw new AuthError('field-required', { field: 'token' });
  if (body.code === undefined) throw new AuthError('field-required', { field: 'code' });
  const { token, code } = body;
  // The attempt is committed before the comparison, as at /login_with_2fa: verdicts, not throws.
  const verdict = await transaction(ctx.db, async (client) => {
    const challenge = await takeAttempt(client, sha256(token), [purpose]);
    if (!challenge || challenge.user_id !== user.id) return 'invalid-ticket' as const;
    const expected = codeHash(ctx.env.AUTH_CODE_PEPPER, challenge.id, challenge.purpose, code);
    if (!sameDigest(expected, challenge.code_hash)) {
      return challenge.attempts >= MAX_CODE_ATTEMPTS
        ? ('invalid-ticket' as const)
        : ('invalid-code' as const);
    }
    if (!(await consumeChallenge(client, challenge.id))) return 'invalid-ticket' as const;
    return { changed: await setTwoFactor(client, user.id, body.enabled) };
  });
  if (typeof verdict === 'string') {
    throw new AuthError(verdict, verdict === 'invalid-code' ? { field: 'code' } : {});
  }
  answer(ctx, res, user.id, body.enabled, verdict.changed, info);
}

function answer(
  ctx: AppContext,
  res: Response,
  userId: string,
  enabled: boolean,
  changed: boolean,
  info: RequestInfo,
) {
  res.json({ ok: true, enabled });
  if (!changed) return;
  ctx.background('two-factor notice', async () => {
    const user = await findUserById(ctx.db, userId);
    if (!user?.email) return;
    await ctx.mailer.send(twoFactorChangedMail(user.locale, user.email, { enabled, ...info }));
  });
}
