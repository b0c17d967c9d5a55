import { randomBytes } from 'node:crypto';

import express, { type Request, type Response, type Router } from 'express';
import type { UserFromGetMe } from 'grammy/types';

import { keyboardRefusal, textRefusal } from './refusals.ts';
import { commandsKey, JSON_PARAMETERS, text } from './wire.ts';

/*
 * A Telegram Bot API server for development and tests: the methods this bot uses, in Telegram's
 * wire format (`POST {root}/bot<token>/<method>`, JSON or form bodies, `{ ok, result }` or
 * `{ ok: false, error_code, description, parameters }`). It keeps chats and messages in memory,
 * queues updates for getUpdates (long polling) and can answer the next calls with a 429, as
 * Telegram does when a bot sends too fast. People act through `sandbox` methods (the sandbox
 * page, the tests): a user sends a message or presses an inline button.
 */

export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
  language_code?: string;
}

export interface SandboxChat {
  id: number;
  type: 'private' | 'group';
  title?: string;
  first_name?: string;
  username?: string;
}

export interface SandboxMessage {
  message_id: number;
  chat: SandboxChat;
  from: TelegramUser;
  date: number;
  text: string;
  /** A service message: Telegram's word that the person let the bot write to them. */
  write_access_allowed?: { from_request?: boolean; web_app_name?: string };
  reply_markup?: unknown;
  edit_date?: number;
}

interface PendingPoll {
  offset: number;
  respond: (updates: unknown[]) => void;
  /** Answers 409: another getUpdates took over. */
  conflict: () => void;
}

export interface EmulatorOptions {
  /**
   * Runs as Telegram's test environment, which takes http web app URLs (a development mini-app
   * on localhost); production (the default) refuses them.
   */
  testEnvironment?: boolean;
  /**
   * Every person has started the bot (a load test whose customers are made in the database):
   * no 403 for a first message.
   */
  everyoneStartedBot?: boolean;
}

/** How long Telegram takes an answer to a callback query. */
const CALLBACK_ANSWER_MS = 15 * 60_000;

/** A bot's answer to a button press, as the person's Telegram client shows it. */
export interface CallbackAnswer {
  /** Counts up, so a client shows each answer once. */
  id: number;
  chatId: number;
  /** A toast, or with `show_alert` an alert with OK; nothing when absent. */
  text?: string;
  show_alert: boolean;
  /** A URL the client opens. */
  url?: string;
}

/** Bot API: answerCallbackQuery's text is 0-200 characters. */
const CALLBACK_TEXT_MAX = 200;

export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
}

export class BotApiEmulator {
  readonly bot: TelegramUser;
  private readonly messages: SandboxMessage[] = [];
  private readonly chats = new Map<number, SandboxChat>();
  private readonly updates: Array<{ update_id: number } & Record<string, unknown>> = [];
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private polls: PendingPoll[] = [];
  private failures: { count: number; retryAfter: number } = { count: 0, retryAfter: 0 };
  readonly calls: ApiCall[] = [];
  /** The default menu button (setChatMenuButton without chat_id). */
  menuButton: unknown = { type: 'default' };
  /** Menu buttons set for one private chat, which win over the default there. */
  readonly chatMenuButtons = new Map<number, unknown>();
  commands = new Map<string, unknown>();
  webhook: { url: string; secret_token?: string } | undefined;
  private listeners = new Set<() => void>();
  /** The users who started the bot (wrote to it, pressed a button): the bot may write to them. */
  private readonly started = new Set<number>();
  /** Callback queries not yet answered: when they were asked, and in which chat. */
  private readonly queries = new Map<string, { asked: number; chatId: number }>();
  /** The bot's answers to button presses, oldest first. */
  readonly callbackAnswers: CallbackAnswer[] = [];
  private readonly testEnvironment: boolean;
  private readonly everyoneStarted: boolean;

  constructor(
    readonly token: string,
    botUser: { id: number; first_name: string; username: string },
    options: EmulatorOptions = {},
  ) {
    this.bot = { ...botUser, is_bot: true };
    this.testEnvironment = options.testEnvironment ?? false;
    this.everyoneStarted = options.everyoneStartedBot ?? false;
  }

  /** `user` pressed Start earlier (silently: no message now), so the bot may write to them. */
  userStartedBot(user: Pick<TelegramUser, 'id'>): void {
    this.started.add(user.id);
  }

  /** What getMe answers; also the bot's `botInfo`, so the bot needs no getMe call. */
  get botInfo(): UserFromGetMe {
    return {
      id: this.bot.id,
      is_bot: true,
      first_name: this.bot.first_name,
      username: this.bot.username ?? 'sandbox_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: true,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    };
  }

  /** The next `count` Bot API calls (sending methods) answer 429 with retry_after. */
  failNext(count: number, retryAfterSeconds: number): void {
    this.failures = { count, retryAfter: retryAfterSeconds };
  }

  /** Called after every change (a message sent, edited); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** The menu button a chat shows: its own, else the default. */
  menuButtonOf(chatId: unknown): unknown {
    return (
      (chatId === undefined ? undefined : this.chatMenuButtons.get(Number(chatId))) ??
      this.menuButton
    );
  }

  addChat(chat: SandboxChat): SandboxChat {
    this.chats.set(chat.id, chat);
    return chat;
  }

  chatMessages(chatId: number): SandboxMessage[] {
    return this.messages.filter((message) => message.chat.id === chatId);
  }

  allMessages(): SandboxMessage[] {
    return [...this.messages];
  }

  private chatFor(id: number): SandboxChat {
    return this.chats.get(id) ?? this.addChat({ id, type: id < 0 ? 'group' : 'private' });
  }

  private pushUpdate(update: Record<string, unknown>): void {
    this.updates.push({ update_id: this.nextUpdateId++, ...update });
    const waiting = this.polls;
    this.polls = [];
    for (const poll of waiting) poll.respond(this.pending(poll.offset));
  }

  private pending(offset: number): unknown[] {
    return this.updates.filter((update) => update.update_id >= offset);
  }

  /** A person writes in a chat (a command is just text starting with /). */
  userSends(chatId: number, from: TelegramUser, text: string): SandboxMessage {
    const message: SandboxMessage = {
      message_id: this.nextMessageId++,
      chat: this.chatFor(chatId),
      from,
      date: Math.floor(Date.now() / 1000),
      text,
    };
    if (message.chat.type === 'private') this.started.add(from.id);
    // A command's entity covers the bot's name too (`/start@bot`), as Telegram marks it.
    const command = /^\/\w+(?:@\w+)?/.exec(text);
    const entities = command
      ? [{ type: 'bot_command', offset: 0, length: command[0].length }]
      : undefined;
    this.messages.push(message);
    this.changed();
    this.pushUpdate({ message: { ...message, ...(entities ? { entities } : {}) } });
    return message;
  }

  /** A person presses an inline button with callback data under a message. */
  userPresses(chatId: number, from: TelegramUser, messageId: number, data: string): string {
    const message = this.messages.find(
      (item) => item.chat.id === chatId && item.message_id === messageId,
    );
    if (!message) throw new Error(`no message ${messageId} in chat ${chatId}`);
    const id = randomBytes(8).toString('hex');
    this.started.add(from.id);
    this.queries.set(id, { asked: Date.now(), chatId });
    this.pushUpdate({
      callback_query: { id, from, message, chat_instance: String(chatId), data },
    });
    return id;
  }

  /**
   * `user` allows the bot to write to them when a mini-app asks (requestWriteAccess): Telegram
   * then lets the bot write first and tells it with a write_access_allowed service message in
   * the private chat (from_request: the mini-app asked).
   */
  userAllowsWriteAccess(user: TelegramUser): SandboxMessage {
    this.started.add(user.id);
    const message: SandboxMessage = {
      message_id: this.nextMessageId++,
      chat: this.chats.get(user.id) ?? this.addChat({ id: user.id, type: 'private' }),
      from: user,
      date: Math.floor(Date.now() / 1000),
      text: '',
      write_access_allowed: { from_request: true },
    };
    this.messages.push(message);
    this.changed();
    const { text: _text, ...service } = message;
    this.pushUpdate({ message: service });
    return message;
  }

  /** The bot's answers to presses in chat `chatId`, oldest first. */
  answersIn(chatId: number): CallbackAnswer[] {
    return this.callbackAnswers.filter((answer) => answer.chatId === chatId);
  }

  /** The Bot API's HTTP side, for the bot's `apiRoot`. */
  router(): Router {
    const router = express.Router();
    const parse = [express.json({ limit: '1mb' }), express.urlencoded({ extended: false })];
    router.all('/:botToken/:method', ...parse, (req, res) => this.handle(req, res));
    return router;
  }

  private reply(res: Response, result: unknown): void {
    res.json({ ok: true, result });
  }

  private error(res: Response, code: number, description: string, parameters?: unknown): void {
    res
      .status(code)
      .json({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
  }

  private handle(req: Request, res: Response): void {
    const { botToken = '', method = '' } = req.params as Record<string, string>;
    if (botToken !== `bot${this.token}`) return this.error(res, 401, 'Unauthorized');
    const params = {
      ...(req.query as Record<string, unknown>),
      ...((req.body ?? {}) as Record<string, unknown>),
    };
    // Form bodies carry objects as JSON strings, as Telegram accepts them: only the parameters
    // whose type is an object or an array (a message's text may well start with a bracket).
    for (const [key, value] of Object.entries(params)) {
      if (typeof value === 'string' && JSON_PARAMETERS.has(key)) {
        try {
          params[key] = JSON.parse(value);
        } catch {
          return this.error(res, 400, `Bad Request: can't parse ${key} JSON object`);
        }
      }
    }
    const polling = /^getupdates$/i.test(method);
    if (!polling) this.calls.push({ method, params });
    if (!polling && !/^getme$/i.test(method) && this.failures.count > 0) {
      this.failures.count -= 1;
      return this.error(res, 429, `Too Many Requests: retry after ${this.failures.retryAfter}`, {
        retry_after: this.failures.retryAfter,
      });
    }
    // Telegram matches method names case-insensitively (getme, GETME and getMe are one).
    switch (method.toLowerCase()) {
      case 'getme':
        return this.reply(res, this.botInfo);
      case 'getupdates':
        return this.getUpdates(params, res);
      case 'setwebhook':
        this.webhook = {
          url: text(params['url']),
          ...(params['secret_token'] ? { secret_token: text(params['secret_token']) } : {}),
        };
        return this.reply(res, true);
      case 'deletewebhook':
        this.webhook = undefined;
        return this.reply(res, true);
      case 'getwebhookinfo':
        return this.reply(res, {
          url: this.webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: 0,
        });
      case 'setmycommands':
        this.commands.set(commandsKey(params), params['commands']);
        return this.reply(res, true);
      case 'deletemycommands':
        this.commands.delete(commandsKey(params));
        return this.reply(res, true);
      case 'setchatmenubutton':
        if (params['chat_id'] === undefined) this.menuButton = params['menu_button'];
        else this.chatMenuButtons.set(Number(params['chat_id']), params['menu_button']);
        return this.reply(res, true);
      case 'getchatmenubutton':
        return this.reply(res, this.menuButtonOf(params['chat_id']));
      case 'sendmessage':
        return this.sendMessage(params, res);
      case 'editmessagetext':
        return this.editMessageText(params, res);
      case 'answercallbackquery':
        return this.answerCallbackQuery(params, res);
      default:
        return this.error(res, 404, 'Not Found: method not found');
    }
  }

  private answerCallbackQuery(params: Record<string, unknown>, res: Response): void {
    const id = text(params['callback_query_id']);
    const query = this.queries.get(id);
    if (query === undefined || Date.now() - query.asked > CALLBACK_ANSWER_MS) {
      this.queries.delete(id);
      return this.error(
        res,
        400,
        'Bad Request: query is too old and response timeout expired or query ID is invalid',
      );
    }
    const answer = text(params['text']);
    // Telegram's refusal of a longer text (MTProto messages.setBotCallbackAnswer lists
    // MESSAGE_TOO_LONG; the Bot API passes it on as "Bad Request: MESSAGE_TOO_LONG", as
    // reported in eternnoir/pyTelegramBotAPI#500). The query stays unanswered, as there.
    if ([...answer].length > CALLBACK_TEXT_MAX)
      return this.error(res, 400, 'Bad Request: MESSAGE_TOO_LONG');
    this.queries.delete(id);
    const url = text(params['url']);
    this.callbackAnswers.push({
      id: this.callbackAnswers.length + 1,
      chatId: query.chatId,
      ...(answer ? { text: answer } : {}),
      show_alert: params['show_alert'] === true || params['show_alert'] === 'true',
      ...(url ? { url } : {}),
    });
    this.changed();
    this.reply(res, true);
  }

  private getUpdates(params: Record<string, unknown>, res: Response): void {
    if (this.webhook)
      return this.error(
        res,
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    // One poller at a time: a new getUpdates ends the one waiting, as Telegram ends it.
    const earlier = this.polls;
    this.polls = [];
    for (const poll of earlier) poll.conflict();
    const offset = Number(params['offset'] ?? 0);
    // Confirmed updates (below the offset) are forgotten, as Telegram forgets them.
    while (this.updates.length > 0 && this.updates[0]!.update_id < offset) this.updates.shift();
    const ready = this.pending(offset);
    const timeout = Math.min(Number(params['timeout'] ?? 0), 50);
    if (ready.length > 0 || timeout <= 0) return this.reply(res, ready);
    const poll: PendingPoll = {
      offset,
      respond: (updates) => {
        clearTimeout(timer);
        this.reply(res, updates);
      },
      conflict: () => {
        clearTimeout(timer);
        this.error(
          res,
          409,
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
        );
      },
    };
    const timer = setTimeout(() => {
      this.polls = this.polls.filter((item) => item !== poll);
      this.reply(res, []);
    }, timeout * 1000);
    res.on('close', () => {
      clearTimeout(timer);
      this.polls = this.polls.filter((item) => item !== poll);
    });
    this.polls.push(poll);
  }

  /** A message's text as Telegram shows it, or the refusal of its text or its keyboard. */
  private checkedText(
    params: Record<string, unknown>,
    chat: SandboxChat,
  ): { refusal: string } | { plain: string } {
    const parsed = textRefusal(text(params['text']), text(params['parse_mode']));
    if ('refusal' in parsed) return parsed;
    const refused = keyboardRefusal(params['reply_markup'], chat, {
      allowHttpWebApps: this.testEnvironment,
    });
    return refused ? { refusal: refused } : parsed;
  }

  private sendMessage(params: Record<string, unknown>, res: Response): void {
    const chatId = Number(params['chat_id']);
    if (!Number.isSafeInteger(chatId)) return this.error(res, 400, 'Bad Request: chat not found');
    // A bot cannot write first to a person: they must have started it (or written to it).
    const chat = this.chatFor(chatId);
    if (chat.type === 'private' && !this.everyoneStarted && !this.started.has(chatId))
      return this.error(res, 403, "Forbidden: bot can't initiate conversation with a user");
    const parsed = this.checkedText(params, chat);
    if ('refusal' in parsed) return this.error(res, 400, parsed.refusal);
    const body = parsed.plain;
    const message: SandboxMessage = {
      message_id: this.nextMessageId++,
      chat,
      from: this.bot,
      date: Math.floor(Date.now() / 1000),
      text: body,
      ...(params['reply_markup'] ? { reply_markup: params['reply_markup'] } : {}),
    };
    this.messages.push(message);
    this.changed();
    this.reply(res, message);
  }

  private editMessageText(params: Record<string, unknown>, res: Response): void {
    const message = this.messages.find(
      (item) =>
        item.chat.id === Number(params['chat_id']) &&
        item.message_id === Number(params['message_id']),
    );
    if (!message) return this.error(res, 400, 'Bad Request: message to edit not found');
    const parsed = this.checkedText(params, message.chat);
    if ('refusal' in parsed) return this.error(res, 400, parsed.refusal);
    const sameMarkup =
      JSON.stringify(params['reply_markup'] ?? null) ===
      JSON.stringify(message.reply_markup ?? null);
    if (parsed.plain === message.text && sameMarkup)
      return this.error(
        res,
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    message.text = parsed.plain;
    if (params['reply_markup']) message.reply_markup = params['reply_markup'];
    else delete message.reply_markup;
    message.edit_date = Math.floor(Date.now() / 1000);
    this.changed();
    this.reply(res, message);
  }
}
