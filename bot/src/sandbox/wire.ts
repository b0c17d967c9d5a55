/*
 * The Bot API's wire format as the emulator reads it: parameters as text, the ones that arrive
 * JSON-encoded in a form body, and where setMyCommands keeps a list.
 */

/** A parameter as text ('' when absent or not text). */
export const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The parameters whose type is an object or an array (JSON-encoded in a form body). */
export const JSON_PARAMETERS = new Set([
  'reply_markup',
  'commands',
  'scope',
  'menu_button',
  'allowed_updates',
  'entities',
  'link_preview_options',
  'reply_parameters',
]);

/** Where setMyCommands keeps a list: its scope (default `default`) and its language. */
export function commandsKey(params: Record<string, unknown>): string {
  const scope = (params['scope'] ?? { type: 'default' }) as { type?: unknown; chat_id?: unknown };
  const chat = scope.chat_id === undefined ? '' : `:${text(scope.chat_id)}`;
  return `${text(scope.type)}${chat}|${text(params['language_code'])}`;
}
