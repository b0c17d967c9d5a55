import { randomBytes, randomUUID } from 'node:crypto';

import type { Request, Response } from 'express';

import type { ChallengeAnswer } from '#src/challenge';
import { requestInfo, type AppContext, type RequestInfo } from '#src/context';
import { codeHash, newLoginCode, newOpaqueToken, sameDigest, sha256 } from '#src/crypto/tokens';
import {
  additionEmail,
  emailTaken,
  lockAndFindRecentAddition,
  replaceAddition,
  setProvenEmail,
} from '#src/db/account-links';
import { transaction } from '#src/db/index';
import {
  CODE_TTL_SECONDS,
  consumeChallenge,
  deleteChallenge,
  MAX_CODE_ATTEMPTS,
  RESEND_COOLDOWN_SECONDS,
  takeAttempt,
} from '#src/db/login-codes';
import { findUserById, type UserRow } from '#src/db/users';
import { AuthError } from '#src/errors';
import { parseBody } from '#src/http/validate';
import { addressTakenMail, codeMail } from '#src/mail/templates';
import { currentSession } from '#src/session';
import { AddEmailConfirm, AddEmailStart } from './schema.ts';

/*
 * A Telegram account adds an e-mail and proves it (issue 22, decision 037): a 6-digit code goes
 * to the address, and only the code coming back makes it the account's (then the person signs
 * in on the portal with it: a quick-auth code, or a password set through reset-password).
 *
 * An address that already has an account gets the same answer (a ticket) as a free one, as
 * /register answers a known address; its owner gets a mail saying so instead of a code, and
 * no code can complete that challenge. So the answer tells nobody whether an address is taken;
 * the mailbox tells its owner.
 */
export async function addEmail(ctx: AppContext, req: Request, res: Response) {
  const session = await currentSession(ctx, ctx.db, req.get('authorization'), req.get('cookie'));
  const user = session ? await findUserById(ctx.db, session.userId) : undefined;
  if (!session || !user || user.is_disabled) throw new AuthError('invalid-access-token');
  const info = requestInfo(req);
  const raw: unknown = req.body;
  if (typeof raw === 'object' && raw !== null && 'token' in raw) {
    await confirm(ctx, user, parseBody(AddEmailConfirm, raw), info);
    res.json({ ok: true, email: (await findUserById(ctx.db, user.id))?.email ?? null });
    return;
  }
  const body = parseBody(AddEmailStart, raw);
  if (user.email) throw new AuthError('account-has-email');
  await ctx.limit('addEmail', info.ip, user.id);
  await ctx.limit('addEmail', info.ip, `address:${body.email}`);
  res.json(await start(ctx, user, body.email, info));
}

async function start(
  ctx: AppContext,
  user: UserRow,
  email: string,
  info: RequestInfo,
): Promise<ChallengeAnswer> {
  const ticket = newOpaqueToken();
  const code = newLoginCode();
  const id = randomUUID();
  const taken = await emailTaken(ctx.db, email);
  const outcome = await transaction(ctx.db, async (client) => {
    const recent = await lockAndFindRecentAddition(
      client,
      user.id,
      RESEND_COOLDOWN_SECONDS,
      MAX_CODE_ATTEMPTS,
    );
    // Within the cooldown the same address gets no second mail; another address (a typo
    // corrected) does, within the per-account limit.
    if (recent?.email === email) {
      if (!recent.live) return { retryAfter: recent.retry_after };
      await client.query('UPDATE auth.login_codes SET ticket_hash = $2 WHERE id = $1', [
        recent.id,
        sha256(ticket),
      ]);
      return 'rebound' as const;
    }
    await replaceAddition(
      client,
      {
        id,
        userId: user.id,
        email,
        ticketHash: sha256(ticket),
        // A taken address's challenge gets a hash no 6-digit code has: nothing completes it.
        codeHash: taken
          ? randomBytes(32)
          : codeHash(ctx.env.AUTH_CODE_PEPPER, id, 'add_email', code),
      },
      CODE_TTL_SECONDS,
    );
    return 'created' as const;
  });
  if (typeof outcome === 'object') {
    throw new AuthError('too-many-requests', { retryAfter: outcome.retryAfter });
  }
  if (outcome === 'created') {
    const mail = taken
      ? addressTakenMail(user.locale, email, info)
      : codeMail(user.locale, email, {
          code,
          minutes: CODE_TTL_SECONDS / 60,
          purpose: 'add-email',
          ...info,
        });
    try {
      await ctx.mailer.send(mail);
    } catch (error) {
      await transaction(ctx.db, (client) => deleteChallenge(client, id));
      throw error;
    }
  }
  return { is2fa: true, token: ticket };
}

/** The attempt is committed before the comparison, as at /login_with_2fa. */
async function confirm(
  ctx: AppContext,
  user: UserRow,
  body: { token: string; code: string },
  info: RequestInfo,
) {
  await ctx.limit('code', info.ip, user.id);
  const verdict = await transaction(ctx.db, async (client) => {
    const challenge = await takeAttempt(client, sha256(body.token), ['add_email']);
    if (!challenge || challenge.user_id !== user.id) return 'invalid-ticket' as const;
    const expected = codeHash(ctx.env.AUTH_CODE_PEPPER, challenge.id, challenge.purpose, body.code);
    if (!sameDigest(expected, challenge.code_hash)) {
      return challenge.attempts >= MAX_CODE_ATTEMPTS
        ? ('invalid-ticket' as const)
        : ('invalid-code' as const);
    }
    if (!(await consumeChallenge(client, challenge.id))) return 'invalid-ticket' as const;
    const email = await additionEmail(client, challenge.id);
    // The account got an address meanwhile, or someone else took this one: the code is spent.
    if (!email || !(await setProvenEmail(client, user.id, email))) return 'invalid-ticket' as const;
    return 'ok' as const;
  });
  if (verdict !== 'ok') {
    throw new AuthError(verdict, verdict === 'invalid-code' ? { field: 'code' } : {});
  }
}
