import { randomUUID } from 'node:crypto';

import type { AppContext, RequestInfo } from './context.ts';
import { codeHash, newLoginCode, newOpaqueToken, sameDigest, sha256 } from './crypto/tokens.ts';
import { transaction } from './db/index.ts';
import {
  CODE_TTL_SECONDS,
  consumeChallenge,
  deleteChallenge,
  lockAndFindRecent,
  MAX_CODE_ATTEMPTS,
  rebindTicket,
  replaceChallenge,
  takeAttempt,
  type CodePurpose,
} from './db/login-codes.ts';
import { revokeUserSessions } from './db/refresh-tokens.ts';
import { findUserById, markEmailVerified, type UserRow } from './db/users.ts';
import { AuthError } from './errors.ts';
import { codeMail, type CodeMailPurpose } from './mail/templates.ts';
import { startSession, type Tokens } from './session.ts';

const MAIL_PURPOSE: Record<CodePurpose, CodeMailPurpose> = {
  login_2fa: 'sign-in',
  quick_auth: 'sign-in',
  confirm_address: 'sign-in',
  two_factor_on: 'two-factor-on',
  two_factor_off: 'two-factor-off',
  add_email: 'add-email',
};

export interface ChallengeAnswer {
  is2fa: true;
  /** The single-use challenge ticket to send back with the code. */
  token: string;
}

/**
 * Second factor by e-mail (SECURITY.md 8, 9): stores only hashes, mails a 6-digit code and
 * answers with a ticket; nothing else exists until the code comes back. Within the 60 s resend
 * cooldown no new mail is sent: a still-usable code gets a fresh ticket (the user has the mail
 * already), a used-up one gets 429 with Retry-After.
 */
export async function startChallenge(
  ctx: AppContext,
  user: UserRow & { email: string },
  purpose: CodePurpose,
  info: RequestInfo,
): Promise<ChallengeAnswer> {
  const ticket = newOpaqueToken();
  const code = newLoginCode();
  const id = randomUUID();
  const outcome = await transaction(ctx.db, async (client) => {
    const recent = await lockAndFindRecent(client, user.id, purpose);
    if (recent?.live) {
      await rebindTicket(client, recent.id, sha256(ticket));
      return 'rebound' as const;
    }
    if (recent) return { retryAfter: recent.retry_after };
    await replaceChallenge(client, {
      id,
      userId: user.id,
      purpose,
      ticketHash: sha256(ticket),
      codeHash: codeHash(ctx.env.AUTH_CODE_PEPPER, id, purpose, code),
    });
    return 'created' as const;
  });
  if (typeof outcome === 'object') {
    throw new AuthError('too-many-requests', { retryAfter: outcome.retryAfter });
  }
  if (outcome === 'created') {
    try {
      await ctx.mailer.send(
        codeMail(user.locale, user.email, {
          code,
          minutes: CODE_TTL_SECONDS / 60,
          purpose: MAIL_PURPOSE[purpose],
          ...info,
        }),
      );
    } catch (error) {
      // Without the mail the code is useless; drop it so the cooldown does not block a retry.
      await transaction(ctx.db, (client) => deleteChallenge(client, id));
      throw error;
    }
  }
  return { is2fa: true, token: ticket };
}

type Verdict =
  | { ok: true; tokens: Tokens }
  | { ok: false; code: 'invalid-ticket' | 'invalid-code' | 'user-disabled' };

/**
 * Checks a code against its ticket. The attempt is counted (and committed) before the
 * comparison, so the fifth wrong code kills the challenge even under parallel guessing.
 */
export async function completeChallenge(
  ctx: AppContext,
  ticket: string,
  code: string,
  info: RequestInfo,
): Promise<Tokens> {
  const verdict = await transaction(ctx.db, async (client): Promise<Verdict> => {
    const challenge = await takeAttempt(client, sha256(ticket));
    if (!challenge) return { ok: false, code: 'invalid-ticket' };
    const expected = codeHash(ctx.env.AUTH_CODE_PEPPER, challenge.id, challenge.purpose, code);
    if (!sameDigest(expected, challenge.code_hash)) {
      return {
        ok: false,
        code: challenge.attempts >= MAX_CODE_ATTEMPTS ? 'invalid-ticket' : 'invalid-code',
      };
    }
    if (!(await consumeChallenge(client, challenge.id)))
      return { ok: false, code: 'invalid-ticket' };
    const user = await findUserById(client, challenge.user_id);
    if (!user) return { ok: false, code: 'invalid-ticket' };
    if (user.is_disabled) return { ok: false, code: 'user-disabled' };
    if (!user.is_verified_email) {
      // The code proves the mailbox for the first time. Sessions opened before that (say, by
      // someone who quick-authed this address first) are not the owner's: end them. What else
      // survives depends on who proved it (db/users.ts Proof).
      await revokeUserSessions(client, user.id);
      await markEmailVerified(
        client,
        user.id,
        challenge.purpose === 'quick_auth'
          ? { kind: 'code', challengeId: challenge.id }
          : { kind: 'password-and-code' },
      );
    }
    return { ok: true, tokens: await startSession(ctx, client, user.id, info) };
  });
  if (!verdict.ok) {
    throw new AuthError(verdict.code, verdict.code === 'invalid-code' ? { field: 'code' } : {});
  }
  return verdict.tokens;
}
