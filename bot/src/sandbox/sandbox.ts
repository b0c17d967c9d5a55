import express, { type Router } from 'express';

import {
  DEFAULT_DEV_LAUNCH_USER,
  devLaunchParams,
  isStaffTelegramUser,
  type Queryable,
} from '@app/shared/telegram/dev-launch';

import type { SandboxTelegramUser } from './accounts.ts';
import type { BotApiEmulator, TelegramUser } from './emulator.ts';
import { sandboxPage } from './page.ts';

/*
 * The Telegram sandbox (development without a bot token): the page at / where a developer
 * chats with the bot as a Telegram user would, and watches a staff chat; the mini-app opens
 * from the bot's web_app buttons in a frame, with launch data signed by the sandbox's token.
 * Its people are ordinary accounts made for it (accounts.ts), never staff: a development
 * convenience must never hand out a staff session.
 */

export const SANDBOX_USER: TelegramUser = {
  id: DEFAULT_DEV_LAUNCH_USER,
  is_bot: false,
  first_name: 'Developer',
  username: 'developer',
  language_code: 'en',
};
/**
 * The person writing in the staff chat: an ordinary sandbox account, so staff-only buttons
 * ("Mark handled") answer as they answer anyone who is not staff.
 */
export const SANDBOX_STAFF: TelegramUser = {
  id: 100000099,
  is_bot: false,
  first_name: 'Operator',
  username: 'sandbox_operator',
  language_code: 'en',
};
export const SANDBOX_STAFF_CHAT = -1000000000001;

/** The accounts the sandbox makes for its people (bot.sandbox_accounts). */
export const SANDBOX_ACCOUNTS: SandboxTelegramUser[] = [SANDBOX_USER, SANDBOX_STAFF].map(
  (user) => ({ id: user.id, username: user.username, locale: 'en' }),
);

/** The Telegram clients the sandbox plays: Telegram Web (the default), iOS, Android, Desktop. */
export const SANDBOX_PLATFORMS = ['web', 'ios', 'android', 'tdesktop'] as const;

export function sandboxRouter(emulator: BotApiEmulator, token: string, db: Queryable): Router {
  emulator.addChat({ id: SANDBOX_USER.id, type: 'private', first_name: SANDBOX_USER.first_name });
  emulator.addChat({ id: SANDBOX_STAFF_CHAT, type: 'group', title: 'Staff' });
  // The demo users pressed Start long ago: the bot may write to them first.
  for (const user of SANDBOX_ACCOUNTS) emulator.userStartedBot(user);
  const router = express.Router();
  router.get('/', (_req, res) => {
    res.type('html').send(sandboxPage());
  });
  router.get('/sandbox/state', (_req, res) => {
    res.json({
      user: {
        chatId: SANDBOX_USER.id,
        messages: emulator.chatMessages(SANDBOX_USER.id),
        answers: emulator.answersIn(SANDBOX_USER.id),
      },
      staff: {
        chatId: SANDBOX_STAFF_CHAT,
        messages: emulator.chatMessages(SANDBOX_STAFF_CHAT),
        answers: emulator.answersIn(SANDBOX_STAFF_CHAT),
      },
      menuButton: emulator.menuButtonOf(SANDBOX_USER.id),
    });
  });
  router.post('/sandbox/send', express.json(), (req, res) => {
    const { chat, text } = req.body as { chat?: string; text?: unknown };
    if (typeof text !== 'string' || text.trim() === '' || text.length > 4096) {
      res.status(400).json({ code: 'invalid-text' });
      return;
    }
    const staff = chat === 'staff';
    emulator.userSends(
      staff ? SANDBOX_STAFF_CHAT : SANDBOX_USER.id,
      staff ? SANDBOX_STAFF : SANDBOX_USER,
      text.trim(),
    );
    res.json({ ok: true });
  });
  router.post('/sandbox/press', express.json(), (req, res) => {
    const { chat, messageId, data } = req.body as {
      chat?: string;
      messageId?: unknown;
      data?: unknown;
    };
    const staff = chat === 'staff';
    try {
      emulator.userPresses(
        staff ? SANDBOX_STAFF_CHAT : SANDBOX_USER.id,
        staff ? SANDBOX_STAFF : SANDBOX_USER,
        Number(messageId),
        String(data),
      );
      res.json({ ok: true });
    } catch {
      res.status(400).json({ code: 'no-such-message' });
    }
  });
  /**
   * The mini-app asked for write access and the person chose (the page's dialog): allowed, the
   * emulator lets the bot write and tells it so, as Telegram does; cancelled, nothing happens.
   */
  router.post('/sandbox/write-access', express.json(), (req, res) => {
    const { allowed } = req.body as { allowed?: unknown };
    if (typeof allowed !== 'boolean') {
      res.status(400).json({ code: 'invalid-answer' });
      return;
    }
    if (allowed) emulator.userAllowsWriteAccess(SANDBOX_USER);
    res.json({ status: allowed ? 'allowed' : 'cancelled' });
  });
  /**
   * A web_app button's page as the chosen Telegram client opens it: the address, plus signed
   * launch data with that client's platform and palette (`platform`, `theme` in the query).
   */
  router.get('/sandbox/web-app', async (req, res) => {
    const url = typeof req.query['url'] === 'string' ? req.query['url'] : '';
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      res.status(400).json({ code: 'invalid-url' });
      return;
    }
    // Should someone have linked the sandbox's user to a staff account, it opens nothing.
    if (await isStaffTelegramUser(db, SANDBOX_USER.id)) {
      res.status(403).json({ code: 'staff-account' });
      return;
    }
    const params = new URLSearchParams(
      devLaunchParams(
        {
          user: String(SANDBOX_USER.id),
          lang: SANDBOX_USER.language_code ?? 'en',
          startapp: target.searchParams.get('startapp') ?? undefined,
          theme: req.query['theme'] === 'light' ? 'light' : 'dark',
          platform: SANDBOX_PLATFORMS.find((item) => item === req.query['platform']) ?? 'web',
          // Launch data without allows_write_to_pm, as for someone who came from a link.
          write: req.query['write'] === 'no' ? 'no' : undefined,
        },
        token,
      ),
    );
    res.json({ src: `${target.toString()}#${params.toString()}` });
  });
  return router;
}
