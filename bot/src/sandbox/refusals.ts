/*
 * What Telegram's Bot API refuses and the emulator refuses with it: the descriptions are
 * Telegram's own (`Bad Request: ...`), so a bot that works against the emulator does not meet a
 * refusal for the first time in production.
 */

export interface RefusalChat {
  type: 'private' | 'group';
}

export interface KeyboardOptions {
  /** Telegram's test environment takes http web app URLs; production only https. */
  allowHttpWebApps: boolean;
}

/**
 * What Telegram answers for an inline keyboard it refuses: a web_app button outside a private
 * chat (Bot API: "available only in private chats between a user and the bot"), a web_app URL
 * that is not https outside the test environment, callback data over 64 bytes.
 */
export function keyboardRefusal(
  markup: unknown,
  chat: RefusalChat,
  options: KeyboardOptions = { allowHttpWebApps: false },
): string | undefined {
  const rows = (markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows)) return undefined;
  for (const button of rows.flat() as Array<Record<string, unknown>>) {
    const webApp = button['web_app'] as { url?: unknown } | undefined;
    if (webApp !== undefined && chat.type !== 'private') return 'Bad Request: BUTTON_TYPE_INVALID';
    // Telegram's name for a refused button URL (MTProto's BUTTON_URL_INVALID, which the Bot API
    // passes on); the exact Bot API wording for an http web app was not confirmed.
    const url = typeof webApp?.url === 'string' ? webApp.url : '';
    if (webApp !== undefined && !/^https:\/\//i.test(url))
      if (!(options.allowHttpWebApps && /^http:\/\//i.test(url)))
        return 'Bad Request: BUTTON_URL_INVALID';
    const data = button['callback_data'];
    if (typeof data === 'string' && Buffer.byteLength(data) > 64)
      return 'Bad Request: BUTTON_DATA_INVALID';
  }
  return undefined;
}

/** The tags Telegram's HTML parse mode knows (Bot API, "HTML style"). */
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
]);

/** The named entities Telegram's HTML parse mode knows. */
const HTML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** The byte offset of `index` in `text` (Telegram counts UTF-8 bytes). */
const byteOffset = (text: string, index: number): number => Buffer.byteLength(text.slice(0, index));

/** The character an HTML entity (`lt`, `#60`, `#x3c`) stands for, if Telegram knows it. */
function decodeEntity(name: string): string | undefined {
  if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
  if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
  return HTML_ENTITIES[name.toLowerCase()];
}

/**
 * Parses `text` as Telegram's HTML: the text as Telegram shows it, or Telegram's refusal
 * ("Bad Request: can't parse entities: ..."). An `&` that starts no known entity stays as is.
 */
export function htmlRefusal(text: string): { refusal: string } | { plain: string } {
  const fail = (reason: string) => ({ refusal: `Bad Request: can't parse entities: ${reason}` });
  const open: string[] = [];
  let plain = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '&') {
      const entity = /^&(#x[0-9a-f]+|#\d+|[a-z]+);/i.exec(text.slice(index));
      const decoded = entity ? decodeEntity(entity[1]!) : undefined;
      plain += decoded ?? '&';
      index += decoded === undefined ? 1 : entity![0].length;
      continue;
    }
    if (char !== '<') {
      plain += char;
      index += 1;
      continue;
    }
    const end = text.indexOf('>', index);
    if (end < 0) return fail(`Can't find end of the tag at byte offset ${byteOffset(text, index)}`);
    const tag = /^<(\/?)([a-z][a-z-]*)?(\s[^>]*)?>$/i.exec(text.slice(index, end + 1));
    const closing = tag?.[1] === '/';
    const name = (tag?.[2] ?? '').toLowerCase();
    if (!closing) {
      if (!HTML_TAGS.has(name))
        return fail(`Unsupported start tag "${name}" at byte offset ${byteOffset(text, index)}`);
      const attributes = tag?.[3] ?? '';
      if (name === 'span' && !/class\s*=\s*["']?tg-spoiler/i.test(attributes))
        return fail('Tag "span" must have class "tg-spoiler"');
      open.push(name);
    } else {
      const expected = open.pop();
      if (expected !== name)
        return fail(
          expected === undefined
            ? `Unexpected end tag at byte offset ${byteOffset(text, index)}`
            : `Unmatched end tag at byte offset ${byteOffset(text, index)}, expected "</${expected}>", found "</${name}>"`,
        );
    }
    index = end + 1;
  }
  const unclosed = open.pop();
  if (unclosed !== undefined)
    return fail(`Can't find end tag corresponding to start tag "${unclosed}"`);
  return { plain };
}

/**
 * The text of a sendMessage or editMessageText as Telegram sees it, or its refusal: empty text,
 * text over 4096 characters (after entities are parsed), HTML that does not parse.
 */
export function textRefusal(
  text: string,
  parseMode: string,
): { refusal: string } | { plain: string } {
  if (text.length === 0) return { refusal: 'Bad Request: message text is empty' };
  const parsed = /^html$/i.test(parseMode) ? htmlRefusal(text) : { plain: text };
  if ('refusal' in parsed) return parsed;
  if (parsed.plain.trim().length === 0) return { refusal: 'Bad Request: message text is empty' };
  if (parsed.plain.length > 4096) return { refusal: 'Bad Request: message is too long' };
  return parsed;
}
