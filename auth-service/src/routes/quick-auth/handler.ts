import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { readCookie, sendTokens, startSession } from '#src/session';
import { createEmailUser } from '#src/db/users';
import { parseBody } from '#src/http/validate';
import { knownAddressChallenge } from './known-address.ts';
import { QuickAuthBody } from './schema.ts';

/**
 * Never hands out an existing account: a new e-mail gets a new, unproven account and a
 * session (the order form's path, spec section 4); a known e-mail gets the same answer as 2FA
 * (a ticket, and the code by e-mail). An unproven account may order within tight limits and
 * set nothing that would outlive the owner's first proof of the address (decision 016).
 */
export async function quickAuth(ctx: AppContext, req: Request, res: Response) {
  const body = parseBody(QuickAuthBody, req.body);
  const info = requestInfo(req);
  await ctx.limit('quickAuth', info.ip, body.email);
  const referral = body.referralCode ?? referralFromCookie(req.get('cookie'));
  const created = await createEmailUser(ctx.db, {
    email: body.email,
    passwordHash: null,
    locale: info.locale,
    ...(referral ? { referralCode: referral } : {}),
  });
  if (created) {
    sendTokens(ctx, res, await startSession(ctx, ctx.db, created.id, info));
    return;
  }
  res.json(await knownAddressChallenge(ctx, req, body.email, referral, info));
}

/** The referral_code cookie, when the web client shares its host with this service. */
export function referralFromCookie(header: string | undefined): string | undefined {
  const value = header ? readCookie(header, 'referral_code') : undefined;
  return value && /^[A-Za-z0-9]{3,20}$/.test(value) ? value : undefined;
}
