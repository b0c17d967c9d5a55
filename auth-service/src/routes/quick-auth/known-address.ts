import type { Request } from 'express';

import { startChallenge, type ChallengeAnswer } from '#src/challenge';
import type { RequestInfo, AppContext } from '#src/context';
import { sha256 } from '#src/crypto/tokens';
import { findUserByEmail, referrerFor } from '#src/db/users';
import { currentSession } from '#src/session';

/**
 * The answer to /quick-auth and /register for an address that already has an account: a code
 * mailed to the address and a ticket for it, nothing else (the password of a /register is not
 * applied). Both endpoints answer a known address the same way, in status and shape
 * (docs/decisions/016-unproven-accounts-and-revocation.md).
 *
 * For an unproven account the code is the address's first proof, and who asked matters:
 * - a request signed in to this very account (its creator, or whoever knows its password)
 *   proves it for itself: the code's challenge is one that keeps the password and referrer;
 * - anyone else gets a plain quick-auth code; proving with it keeps nothing of the creator's,
 *   and the referrer becomes the one this request came with (recorded on the challenge).
 */
export async function knownAddressChallenge(
  ctx: AppContext,
  req: Request,
  email: string,
  referralCode: string | undefined,
  info: RequestInfo,
): Promise<ChallengeAnswer> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.email) throw new Error('e-mail taken but no account found');
  const own =
    !user.is_verified_email &&
    (await currentSession(ctx, ctx.db, req.get('authorization'), req.get('cookie')))?.userId ===
      user.id;
  const answer = await startChallenge(
    ctx,
    { ...user, email: user.email },
    own ? 'confirm_address' : 'quick_auth',
    info,
  );
  if (!user.is_verified_email && !own) {
    await ctx.db.query('UPDATE auth.login_codes SET referrer_id = $2 WHERE ticket_hash = $1', [
      sha256(answer.token),
      await referrerFor(ctx.db, user.id, referralCode),
    ]);
  }
  return answer;
}
