import { createHash } from 'node:crypto';
import { isIP } from 'node:net';

import { inSession } from '../db/session.ts';
import { EMAIL, invalidInput, optionalText, requiredText } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext, Caller } from '../http/payload.ts';

/** Spec section 5: the message for a second request within a minute. */
export const SUPPORT_COOLDOWN_MESSAGE =
  'You have already submitted a request recently. Please try again in a minute.';

export interface SupportOptions extends ActionContext {
  /** The client's request headers as the engine forwards them (lower-case names). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface SubmittedRequest {
  id: string;
  createdAt: string;
}

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** IPv4 as is (mapped IPv6 too); IPv6 by its /64, which one subscriber usually holds whole. */
function addressKey(entry: string): string | null {
  const address = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(entry)?.[1] ?? entry;
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6 || address.includes('%')) return null;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * Who is asking, for the one-a-minute rule beside the e-mail: the signed-in user, else the
 * client address the first trusted hop saw: the last X-Forwarded-For entry, which our engine
 * appends from its own socket, as the proxy in front of the official engine (Caddy) sets it.
 * The entries before it, and X-Real-IP, are whatever the client wrote: never read. Hashed:
 * the table keeps no addresses. Without a usable address only the e-mail rule applies.
 */
export function clientKeyOf(caller: Caller, headers: SupportOptions['headers']): string | null {
  if (caller.userId !== null) return `user:${caller.userId}`;
  const last = first(headers['x-forwarded-for'])
    ?.split(',')
    .map((hop) => hop.trim())
    .at(-1);
  const address = last ? addressKey(last) : null;
  if (address === null) return null;
  return `ip:${createHash('sha256').update(address).digest('hex').slice(0, 32)}`;
}

/**
 * `submitSupportRequest`: the contact form (name, e-mail, order id, message) and the staff
 * feedback form (e-mail, subject, message), from anyone. The database refuses a second request
 * from the same e-mail or client within a minute (spec section 5's message).
 */
export async function submitSupportRequest(options: SupportOptions): Promise<SubmittedRequest> {
  const input = (options.input['input'] ?? {}) as Record<string, unknown>;
  const email = requiredText(input, 'email', 254);
  if (!EMAIL.test(email)) throw invalidInput('email: Invalid email', 'email');
  const message = requiredText(input, 'message', 5000);
  const name = optionalText(input, 'name', 200);
  const orderId = optionalText(input, 'orderId', 64);
  const subject = optionalText(input, 'subject', 200);

  try {
    return await inSession(options.pool, options.sessionVariables, async (client) => {
      const { rows } = await client.query<SubmittedRequest>(
        `INSERT INTO public.support_requests (user_id, name, email, order_id, subject, message, client_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id, to_json(created_at) #>> '{}' AS "createdAt"`,
        [
          options.caller.userId,
          name ?? null,
          email,
          orderId ?? null,
          subject ?? null,
          message,
          clientKeyOf(options.caller, options.headers),
        ],
      );
      return rows[0]!;
    });
  } catch (error) {
    if ((error as { constraint?: unknown }).constraint === 'support_requests_cooldown')
      throw new ActionFailure('too-frequent', SUPPORT_COOLDOWN_MESSAGE, 429);
    throw error;
  }
}
