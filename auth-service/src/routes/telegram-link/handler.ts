import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { newOpaqueToken, sha256 } from '#src/crypto/tokens';
import {
  LINK_TOKEN_TTL_SECONDS,
  storeLinkToken,
  telegramLinkOf,
  unlinkTelegram,
} from '#src/db/account-links';
import { transaction } from '#src/db/index';
import { revokeUserSessions } from '#src/db/refresh-tokens';
import { findUserById } from '#src/db/users';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { currentSession } from '#src/session';
import { SignedInBody } from './schema.ts';

/*
 * A portal account links its Telegram (issue 22, decision 037): this service hands out a
 * one-time link into the bot, t.me/<bot>?start=link_<token>; the bot binds the Telegram user
 * who opens it (bot/src/account-link.ts). Only the token's hash is stored.
 */

/** The signed-in, enabled account of the request (its session still current), or 401. */
async function signedInUser(ctx: AppContext, req: Request) {
  const session = await currentSession(ctx, ctx.db, req.get('authorization'), req.get('cookie'));
  const user = session ? await findUserById(ctx.db, session.userId) : undefined;
  if (!session || !user || user.is_disabled) throw new AuthError('invalid-access-token');
  return { session, user };
}

export async function createLink(ctx: AppContext, req: Request, res: Response) {
  parseBody(SignedInBody, req.body);
  const { user } = await signedInUser(ctx, req);
  // An unproven account may be someone else's address (decision 016): its Telegram would
  // outlive the owner's proof and get the owner's notifications.
  if (!user.email || !user.is_verified_email) throw new AuthError('telegram-link-needs-email');
  if ((await telegramLinkOf(ctx.db, user.id)).linked) {
    throw new AuthError('telegram-already-linked');
  }
  await ctx.limit('telegramLink', requestInfo(req).ip, user.id);
  const token = newOpaqueToken();
  await transaction(ctx.db, (client) => storeLinkToken(client, user.id, sha256(token)));
  const url = new URL(`https://t.me/${ctx.env.TELEGRAM_BOT_USERNAME}`);
  url.searchParams.set('start', `link_${token}`);
  res.json({ url: url.toString(), expiresIn: LINK_TOKEN_TTL_SECONDS });
}

export async function linkStatus(ctx: AppContext, req: Request, res: Response) {
  parseBody(SignedInBody, req.body);
  const { user } = await signedInUser(ctx, req);
  res.json(await telegramLinkOf(ctx.db, user.id));
}

/**
 * Unlinks, and ends every other session: the mini-app's sessions were opened by that Telegram
 * and must not outlive the link. An account whose only way in is Telegram cannot unlink it.
 */
export async function unlink(ctx: AppContext, req: Request, res: Response) {
  parseBody(SignedInBody, req.body);
  const { session, user } = await signedInUser(ctx, req);
  if (!user.email || !user.is_verified_email) throw new AuthError('telegram-unlink-needs-email');
  await transaction(ctx.db, async (client) => {
    if (await unlinkTelegram(client, user.id)) {
      await revokeUserSessions(client, user.id, session.sessionId);
    }
  });
  res.json({ ok: true, linked: false });
}
