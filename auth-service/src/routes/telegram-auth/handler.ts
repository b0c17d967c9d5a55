import type { Request, Response } from 'express';

import { requestInfo, type AppContext } from '#src/context';
import { validateInitData } from '#src/crypto/telegram';
import { upsertTelegramUser } from '#src/db/users';
import { AuthError } from '#src/errors';
import { localeFromLanguageCode } from '#src/i18n';
import { parseBody } from '#src/http/validate';
import { sendTokens, startSession } from '#src/session';
import {
  checksDevelopmentToken,
  recordSandboxAccount,
  refuseBySandboxRules,
  telegramAccountFacts,
} from './sandbox.ts';
import { RawInitData, TelegramAuthBody } from './schema.ts';

/**
 * Telegram quick-auth (SECURITY.md 16): the signature and age are checked before anything is
 * counted or stored; the account is found or created by Telegram's numeric user id only. A
 * username is display data and never links accounts.
 */
export async function telegramAuth(ctx: AppContext, req: Request, res: Response) {
  const body =
    typeof req.body === 'string'
      ? { initData: parseRaw(req.body), referralCode: undefined }
      : parseBody(TelegramAuthBody, req.body);
  const raw = body.initData;
  const info = requestInfo(req);
  const result = validateInitData(
    raw,
    ctx.telegramSecret,
    ctx.env.TELEGRAM_INIT_DATA_MAX_AGE_SECONDS,
    ctx.now(),
  );
  if (!result.ok) {
    req.log.warn({ reason: result.reason }, 'telegram init data refused');
    // A launch dated ahead of our clock (beyond the skew allowed) is signed by Telegram: our
    // clock is behind, which is ours to fix, not the person's launch to blame.
    throw new AuthError(
      result.reason === 'expired'
        ? 'init-data-expired'
        : result.reason === 'future'
          ? 'init-data-from-future'
          : 'invalid-init-data',
    );
  }
  await ctx.limit('telegram', info.ip, String(result.user.id));
  // Development launch data proves nothing: never staff with it, never the sandbox's outside it.
  const developmentToken = checksDevelopmentToken(ctx.env);
  const existing = await telegramAccountFacts(ctx.db, result.user.id);
  refuseBySandboxRules(existing, developmentToken, req.log);
  const user = await upsertTelegramUser(ctx.db, {
    telegramId: result.user.id,
    username: result.user.username ?? null,
    locale: localeFromLanguageCode(result.user.languageCode),
    ...(body.referralCode ? { referralCode: body.referralCode } : {}),
  });
  if (user.is_disabled) throw new AuthError('user-disabled');
  if (!existing && developmentToken) await recordSandboxAccount(ctx.db, user.id);
  // Telegram signed that the bot may write to this person (decision 039): notifications reach them.
  if (allowsWriteToPm(raw)) {
    await ctx.db.query(
      `INSERT INTO bot.write_access (telegram_id, source) VALUES ($1, 'init_data')
       ON CONFLICT (telegram_id) DO NOTHING`,
      [result.user.id],
    );
  }
  sendTokens(ctx, res, await startSession(ctx, ctx.db, user.id, info));
}

function parseRaw(body: string): string {
  const parsed = RawInitData.safeParse(body.trim());
  if (!parsed.success) throw new AuthError('invalid-init-data');
  return parsed.data;
}

/** Whether checked init data says `allows_write_to_pm: true` for its user. */
function allowsWriteToPm(raw: string): boolean {
  try {
    const user: unknown = JSON.parse(new URLSearchParams(raw).get('user') ?? 'null');
    return (user as { allows_write_to_pm?: unknown } | null)?.allows_write_to_pm === true;
  } catch {
    return false;
  }
}
