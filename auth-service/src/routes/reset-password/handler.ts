import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { newOpaqueToken, sha256 } from '#src/crypto/tokens';
import { createResetToken, RESET_TTL_SECONDS } from '#src/db/reset-tokens';
import { findUserByEmail } from '#src/db/users';
import type { Locale } from '#src/i18n';
import { parseBody } from '#src/http/validate';
import { resetMail } from '#src/mail/templates';
import { ResetPasswordBody } from './schema.ts';

const PREFIX: Record<Locale, string> = { en: '', ru: '/ru', ua: '/ua' };

/** The link in the mail: always our configured web origin, never anything from the request. */
export const resetLink = (webOrigin: string, locale: Locale, token: string) =>
  `${webOrigin}${PREFIX[locale]}/change-password/${token}`;

/**
 * Answers 200 before looking the e-mail up: whether the account exists, the reply and its
 * timing are the same (SECURITY.md 6). The lookup, token and mail happen after the response.
 */
export function resetPassword(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(ResetPasswordBody, req.body);
  const info = requestInfo(req);
  return ctx.limit('reset', info.ip, body.email).then(() => {
    res.json({ ok: true });
    ctx.background('password reset mail', async () => {
      const user = await findUserByEmail(ctx.db, body.email);
      if (!user?.email || user.is_disabled) return;
      const token = newOpaqueToken();
      await createResetToken(ctx.db, user.id, sha256(token));
      const link = resetLink(ctx.env.AUTH_WEB_ORIGIN, user.locale, token);
      await ctx.mailer.send(
        resetMail(user.locale, user.email, { link, minutes: RESET_TTL_SECONDS / 60 }),
      );
    });
  });
}
