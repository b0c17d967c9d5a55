import type { Logger } from '@app/shared/log';

import type { Db } from '#src/db/index';
import { DEV_TELEGRAM_BOT_TOKEN, type AuthEnv } from '#src/env';
import { AuthError } from '#src/errors';

/*
 * Telegram sign-in and the development sandbox (issue 19, point 2; docs/decisions/014).
 * Development checks initData against the public development bot token, so there anyone can
 * present any Telegram id: the bot's sandbox, the web server's /telegram-app/dev-launch, or
 * anyone who signs data with that token. Hence:
 * - a staff account never signs in through data signed with the development token;
 * - an account of the sandbox (bot.sandbox_accounts) never signs in as staff, and never at all
 *   once the service checks a real bot token (the sandbox is off);
 * - an account created from data signed with the development token is recorded as the
 *   sandbox's, so the stack removes it when it starts without the sandbox.
 * Staff who linked their own Telegram sign in with it where a real bot token is checked.
 */

/** Whether this service checks initData against the public development token. */
export const checksDevelopmentToken = (env: AuthEnv): boolean =>
  env.TELEGRAM_BOT_TOKEN === DEV_TELEGRAM_BOT_TOKEN;

export interface TelegramAccountFacts {
  id: string;
  staff: boolean;
  sandbox: boolean;
}

/** The account linked to this Telegram id, if any: whether it is staff, whether the sandbox's. */
export async function telegramAccountFacts(
  db: Db,
  telegramId: number,
): Promise<TelegramAccountFacts | undefined> {
  const { rows } = await db.query<TelegramAccountFacts>(
    `SELECT u.id,
            EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = u.id) AS staff,
            EXISTS (SELECT 1 FROM bot.sandbox_accounts s WHERE s.user_id = u.id) AS sandbox
       FROM public.portal_users u WHERE u.telegram_id = $1`,
    [telegramId],
  );
  return rows[0];
}

/** Refuses a sign-in the sandbox rules above forbid (the reason goes to the log only). */
export function refuseBySandboxRules(
  account: TelegramAccountFacts | undefined,
  developmentToken: boolean,
  log: Logger,
): void {
  if (!account) return;
  if (account.sandbox && !developmentToken) {
    log.warn({ userId: account.id }, 'telegram sign-in refused: a sandbox account, sandbox off');
    throw new AuthError('user-disabled');
  }
  if (account.staff && (developmentToken || account.sandbox)) {
    log.warn(
      { userId: account.id },
      'telegram sign-in refused: a staff account, with development launch data',
    );
    throw new AuthError('invalid-init-data');
  }
}

/** Records an account just created from development launch data as the sandbox's. */
export async function recordSandboxAccount(db: Db, userId: string): Promise<void> {
  await db.query(
    `INSERT INTO bot.sandbox_accounts (user_id)
     SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = $1)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId],
  );
}
