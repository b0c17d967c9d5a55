import type { Request, Response } from 'express';

import { requestInfo, type AppContext, type RequestInfo } from '#src/context';
import { hashPassword, verifyPassword } from '#src/crypto/password';
import { sha256 } from '#src/crypto/tokens';
import { transaction } from '#src/db/index';
import { revokeUserSessions } from '#src/db/refresh-tokens';
import { consumeResetToken, peekResetToken } from '#src/db/reset-tokens';
import { endAllSessions, findUserById, markEmailVerified, setPasswordHash } from '#src/db/users';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { passwordChangedMail } from '#src/mail/templates';
import { checkConfirmation, checkPasswordPolicy } from '#src/password-policy';
import { presentedAccessToken } from '#src/session';
import { ResetChangeBody, ResetTokenCheckBody, SignedInChangeBody } from './schema.ts';

export async function changePassword(ctx: AppContext, req: Request, res: Response) {
  const raw: unknown = req.body;
  const hasToken = typeof raw === 'object' && raw !== null && 'token' in raw;
  const accessToken = presentedAccessToken(ctx, req.get('authorization'), req.get('cookie'));
  if (hasToken || accessToken === undefined) await withResetToken(ctx, req);
  else await signedIn(ctx, req, accessToken);
  res.json({ ok: true });
}

/**
 * Whether a reset link is still good, asked when its page opens (issue 23: a dead link is said
 * on arrival, not after a new password was typed). Nothing is used up; it counts against the
 * same limit as the change itself. `{ ok: true, valid }`: a question answered, so no error
 * status (a browser logs those); `valid` is false alike for an unknown, used or expired token.
 */
export async function checkResetToken(ctx: AppContext, req: Request, res: Response) {
  await ctx.limit('changePassword', requestInfo(req).ip);
  // A token no link could carry (cut short, mistyped) is as dead as an expired one.
  const body = ResetTokenCheckBody.safeParse(req.body);
  if (!body.success) {
    res.json({ ok: true, valid: false });
    return;
  }
  const target = await peekResetToken(ctx.db, sha256(body.data.token));
  res.json({ ok: true, valid: target !== undefined });
}

/**
 * The reset link's flow. The token is checked without being used up, then the new hash is
 * computed, and only then is the token consumed (atomically) together with the change, so a
 * policy error does not burn the link and two racing requests cannot both use it.
 */
async function withResetToken(ctx: AppContext, req: Request) {
  const body = parseBody(ResetChangeBody, req.body);
  const info = requestInfo(req);
  await ctx.limit('changePassword', info.ip);
  const tokenHash = sha256(body.token);
  const target = await peekResetToken(ctx.db, tokenHash);
  if (!target) throw new AuthError('invalid-reset-token', { field: 'token' });
  checkPasswordPolicy(body.password, target.email);
  checkConfirmation(body.password, body.confirmPassword);
  const passwordHash = await hashPassword(body.password);
  const userId = await transaction(ctx.db, async (client) => {
    const consumed = await consumeResetToken(client, tokenHash);
    if (!consumed) return undefined;
    await setPasswordHash(client, consumed.user_id, passwordHash);
    // The link proved the mailbox; every session, whoever holds it, ends, access tokens too.
    await markEmailVerified(client, consumed.user_id, { kind: 'reset' });
    await endAllSessions(client, consumed.user_id);
    return consumed.user_id;
  });
  if (!userId) throw new AuthError('invalid-reset-token', { field: 'token' });
  notify(ctx, userId, info);
}

/** Signed in: the current password is required; every other session ends. */
async function signedIn(ctx: AppContext, req: Request, accessToken: string) {
  const claims = ctx.jwt.verify(accessToken);
  if (!claims) throw new AuthError('invalid-access-token');
  const body = parseBody(SignedInChangeBody, req.body);
  const info = requestInfo(req);
  await ctx.limit('changePassword', info.ip, claims.userId);
  const user = await findUserById(ctx.db, claims.userId);
  if (!user || user.is_disabled) throw new AuthError('invalid-access-token');
  const ok = user.password_hash
    ? await verifyPassword(user.password_hash, body.currentPassword)
    : await ctx.dummyVerify();
  if (!ok) throw new AuthError('invalid-current-password', { field: 'currentPassword' });
  checkPasswordPolicy(body.password, user.email);
  checkConfirmation(body.password, body.confirmPassword);
  const passwordHash = await hashPassword(body.password);
  await transaction(ctx.db, async (client) => {
    await setPasswordHash(client, user.id, passwordHash);
    await revokeUserSessions(client, user.id, claims.sessionId);
  });
  notify(ctx, user.id, info);
}

function notify(ctx: AppContext, userId: string, info: RequestInfo) {
  ctx.background('password changed notice', async () => {
    const user = await findUserById(ctx.db, userId);
    if (!user?.email) return;
    await ctx.mailer.send(passwordChangedMail(user.locale, user.email, info));
  });
}
