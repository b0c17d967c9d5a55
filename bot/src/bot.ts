import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import { Bot, GrammyError, InlineKeyboard, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';

import { parseStartParam } from '@app/shared/telegram';
import type { Logger } from '@app/shared/log';

import { linkTelegram, linkTokenOf } from './account-link.ts';
import {
  accountOfTelegramUser,
  latestOrders,
  markSupportHandled,
  recordWriteAccess,
  staffOfTelegramUser,
  supportRequestById,
  type Pool,
} from './db.ts';
import { usesSandbox, type BotEnv } from './env.ts';
import { receiveText, sendText, statusText } from './format.ts';
import { consoleUrl, miniappUrl, privateChatUrl } from './links.ts';
import { localeOfTelegram, translator } from './texts.ts';

/*
 * The bot (spec sections 1 and 6): /start opens the mini-app (with the deep link passed on),
 * /history lists the person's latest orders, /help and /support explain; staff mark support
 * requests handled from their chat. Every Bot API call is retried after a 429 (auto-retry,
 * honouring retry_after) and paced under Telegram's limits (throttler).
 */

export interface BotDeps {
  env: BotEnv;
  /** A pool: linking an account runs in a transaction of its own. */
  db: Pool;
  logger: Logger;
  token: string;
  /** The Bot API server: Telegram's, or the sandbox's. */
  apiRoot: string;
  /** Known in advance (sandbox, tests), so no getMe is needed. */
  botInfo?: UserFromGetMe;
  /** The throttler's limits; default Telegram's (tests shorten the minute of a group's 20). */
  throttle?: Parameters<typeof apiThrottler>[0];
}

/** Orders /history lists. */
const HISTORY_LIMIT = 5;

export const SUPPORT_HANDLED = /^support:handled:([0-9a-f-]{36})$/;

const localeOf = (ctx: Context) => localeOfTelegram(ctx.from?.language_code);

export function createBot(deps: BotDeps): Bot {
  const { env, db, logger } = deps;
  const bot = new Bot(deps.token, {
    client: { apiRoot: deps.apiRoot },
    ...(deps.botInfo ? { botInfo: deps.botInfo } : {}),
  });
  bot.api.config.use(apiThrottler(deps.throttle));
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 300 }));

  // Groups (the staff chats, or any group someone adds the bot to): Telegram allows web_app
  // buttons only in private chats, and a person's orders are theirs alone. /start and
  // /history answer with a URL button into the private chat with the bot (its deep link passed
  // on); other messages get no reply.
  const groups = bot.chatType(['group', 'supergroup']);
  groups.command(['start', 'history'], async (ctx) => {
    const t = translator(localeOf(ctx));
    const given = ctx.hasCommand('start') ? ctx.match.trim() : '';
    // A link token is a secret: never put it on a button everyone in a group sees.
    const payload = linkTokenOf(given) ? '' : given;
    await ctx.reply(t('group.private'), {
      reply_markup: new InlineKeyboard().url(
        t('group.openChat'),
        privateChatUrl(ctx.me.username, payload),
      ),
    });
  });

  const people = bot.chatType('private');
  people.command('start', async (ctx) => {
    const t = translator(localeOf(ctx));
    // The menu button in the person's language, for their chat (the default one is English).
    await optionalSetting(logger, 'setChatMenuButton', () =>
      ctx.api.setChatMenuButton({ chat_id: ctx.chat.id, menu_button: menuButton(env, t('menu')) }),
    );
    const token = linkTokenOf(ctx.match.trim());
    if (token) {
      // The sandbox's Telegram ids are anyone's (its token is public) and real people's outside
      // it: a link made there would outlive the sandbox (decision 037).
      const outcome = usesSandbox(env)
        ? 'sandbox'
        : await linkTelegram(db, token, { id: ctx.from.id, username: ctx.from.username ?? null });
      logger.info({ outcome }, 'telegram link');
      await ctx.reply(t(`link.${outcome}`), {
        reply_markup: new InlineKeyboard().webApp(t('start.open'), miniappUrl(env)),
      });
      return;
    }
    const link = parseStartParam(ctx.match.trim());
    const keyboard = new InlineKeyboard().webApp(
      link.orderId
        ? t('start.openOrder')
        : link.pair
          ? t('start.openPair', { from: link.pair.from, to: link.pair.to })
          : t('start.open'),
      miniappUrl(env, link),
    );
    await ctx.reply(t('start.greeting', { name: ctx.from.first_name }), {
      reply_markup: keyboard,
    });
  });

  people.command('history', async (ctx) => {
    const locale = localeOf(ctx);
    const t = translator(locale);
    const account = ctx.from ? await accountOfTelegramUser(db, ctx.from.id) : undefined;
    const orders = account ? await latestOrders(db, account.id, HISTORY_LIMIT) : [];
    if (orders.length === 0) {
      await ctx.reply(account ? t('history.empty') : t('history.noAccount'), {
        reply_markup: new InlineKeyboard().webApp(t('start.open'), miniappUrl(env)),
      });
      return;
    }
    const lines = orders.map((order) =>
      t('history.row', {
        number: order.number,
        send: sendText(order),
        receive: receiveText(order),
        status: statusText(locale, order.status),
      }),
    );
    const keyboard = new InlineKeyboard();
    for (const order of orders) {
      keyboard
        .webApp(t('history.open', { number: order.number }), miniappUrl(env, { orderId: order.id }))
        .row();
    }
    await ctx.reply([t('history.title'), ...lines].join('\n'), { reply_markup: keyboard });
  });

  bot.command('help', async (ctx) => {
    await ctx.reply(translator(localeOf(ctx))('help.text'));
  });

  bot.command('support', async (ctx) => {
    const locale = localeOf(ctx);
    const t = translator(locale);
    const prefix = locale === 'en' ? '' : `/${locale}`;
    await ctx.reply(
      t('support.text', {
        email: env.PUBLIC_CONTACT_EMAIL,
        telegram: env.PUBLIC_TELEGRAM_URL,
        channel: env.PUBLIC_TELEGRAM_CHANNEL_URL,
      }),
      {
        reply_markup: new InlineKeyboard().url(
          t('support.form'),
          consoleUrl(env, `${prefix}/contact`),
        ),
      },
    );
  });

  bot.callbackQuery(SUPPORT_HANDLED, async (ctx) => {
    const t = translator(localeOf(ctx));
    const requestId = ctx.match[1]!;
    const staff = await staffOfTelegramUser(db, ctx.from.id);
    if (!staff) {
      await ctx.answerCallbackQuery({ text: t('staff.notStaff'), show_alert: true });
      return;
    }
    const request = await supportRequestById(db, requestId);
    if (!request) {
      await ctx.answerCallbackQuery({ text: t('staff.notFound') });
      return;
    }
    const marked = await markSupportHandled(db, requestId, staff.id);
    const who = staff.email ?? ctx.from.first_name;
    await ctx.answerCallbackQuery({
      text: marked ? t('staff.handled', { who }) : t('staff.handledAlready'),
    });
    if (marked && ctx.callbackQuery.message) {
      // The button goes; the message says who handled it, for everyone in the chat.
      const text = ctx.callbackQuery.message.text ?? '';
      await ctx.editMessageText(`${text}\n\n✓ ${t('staff.handled', { who })}`, {
        reply_markup: new InlineKeyboard().url(
          t('staff.openConsole'),
          consoleUrl(env, '/admin/support-requests'),
        ),
      });
    }
  });

  // Telegram's word that the person let the bot write to them (the mini-app asked, or they
  // allowed it at a launch): recorded, and no reply (it is a service message, not theirs).
  people.on('message:write_access_allowed', async (ctx) => {
    await recordWriteAccess(db, ctx.from.id, 'write_access_allowed');
    logger.info({ from: ctx.message.write_access_allowed }, 'write access allowed');
  });

  // A button the bot no longer knows (an old message's): answered, or Telegram shows the
  // press loading until it gives up.
  bot.on('callback_query:data', async (ctx) => {
    await ctx.answerCallbackQuery({ text: translator(localeOf(ctx))('staleButton') });
  });

  // Last: anything else in a private chat (a branch made here, after every command).
  bot.chatType('private').on('message', async (ctx) => {
    await ctx.reply(translator(localeOf(ctx))('fallback'));
  });

  bot.catch((error) => {
    logger.error({ err: error.error, update: error.ctx.update.update_id }, 'update failed');
  });
  return bot;
}

/**
 * The commands and the menu button people see, in each language Telegram knows them by. The
 * commands are for private chats only (a group shows none: its members talk to each other);
 * lists an earlier version set for every chat are removed. A Bot API server without one of these
 * methods (a test server, an older self-hosted one) costs the menu, not the bot: a warning.
 */
export async function configureBot(bot: Bot, env: BotEnv, logger: Logger): Promise<void> {
  const optional = (method: string, call: () => Promise<unknown>) =>
    optionalSetting(logger, method, call);
  const languages = [
    { locale: 'en', code: undefined },
    { locale: 'ru', code: 'ru' },
    { locale: 'ua', code: 'uk' },
  ] as const;
  for (const { locale, code } of languages) {
    const t = translator(locale);
    const commands = (['start', 'history', 'help', 'support'] as const).map((command) => ({
      command,
      description: t(`commands.${command}`),
    }));
    const language = code ? { language_code: code } : {};
    await optional('deleteMyCommands', () => bot.api.deleteMyCommands(language));
    await optional('setMyCommands', () =>
      bot.api.setMyCommands(commands, { scope: { type: 'all_private_chats' }, ...language }),
    );
  }
  await optional('setChatMenuButton', () =>
    bot.api.setChatMenuButton({ menu_button: menuButton(env, translator('en')('menu')) }),
  );
}

/** The menu button that opens the mini-app, labelled `text`. */
const menuButton = (env: BotEnv, text: string) =>
  ({ type: 'web_app', text, web_app: { url: miniappUrl(env) } }) as const;

/** A setting the Bot API server may refuse (no such method there): a warning, never a crash. */
async function optionalSetting(logger: Logger, method: string, call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof GrammyError)) throw error;
    logger.warn({ method, error: error.description }, 'the Bot API refused an optional setting');
  }
}
