import { parse } from 'lossless-json';
import type pg from 'pg';
import * as z from 'zod';

import { ActionFailure } from './errors.ts';

/**
 * The body the engine POSTs for an action (Hasura's payload). Parsed with every JSON number
 * kept as its digits (a string), so a `numeric` argument never passes through a float.
 */
export const ActionPayload = z.object({
  action: z.object({ name: z.string().min(1) }),
  input: z.record(z.string(), z.unknown()),
  session_variables: z.record(z.string(), z.string()),
  request_query: z.string().optional(),
});
export type ActionPayload = z.infer<typeof ActionPayload>;

/**
 * The first string in an action's arguments that holds U+0000, as its path (`input.message`).
 * PostgreSQL text cannot hold that character: such a value failed in the database with an
 * `unexpected` error (issue 11) instead of being refused as the input error it is.
 */
export function nulCharacterPath(value: unknown): string[] | undefined {
  // Iterative, each step linked to its parent: however deep the arguments nest, no stack is
  // at risk and no path is copied.
  interface Step {
    key: string;
    parent: Step | undefined;
  }
  const pending: Array<[unknown, Step | undefined]> = [[value, undefined]];
  while (pending.length > 0) {
    const [item, step] = pending.pop()!;
    if (typeof item === 'string') {
      if (!item.includes('\u0000')) continue;
      const path: string[] = [];
      for (let at = step; at; at = at.parent) path.unshift(at.key);
      return path;
    }
    if (item === null || typeof item !== 'object') continue;
    for (const [key, child] of Object.entries(item).reverse())
      pending.push([child, { key, parent: step }]);
  }
  return undefined;
}

/** Parses the raw body; every number becomes the string of its digits. */
export function parsePayload(body: string): ActionPayload {
  let value: unknown;
  try {
    value = parse(body, null, (digits) => digits);
  } catch {
    throw new ActionFailure('invalid-payload', 'The request body is not valid JSON.');
  }
  const parsed = ActionPayload.safeParse(value);
  if (!parsed.success)
    throw new ActionFailure('invalid-payload', 'The request body is not an action payload.');
  const nul = nulCharacterPath(parsed.data.input);
  if (nul) {
    const field = nul.filter((key) => !/^\d+$/.test(key)).at(-1) ?? nul.join('.');
    throw new ActionFailure(
      'invalid-input',
      `${nul.join('.')}: the text may not contain the NUL character (U+0000).`,
      400,
      { field },
    );
  }
  return parsed.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who is calling, from the session variables the engine forwards (the only thing trusted). */
export interface Caller {
  role: string;
  /** The signed-in user; null for anonymous and admin-secret sessions. */
  userId: string | null;
}

export function callerOf(payload: ActionPayload): Caller {
  const variables = Object.fromEntries(
    Object.entries(payload.session_variables).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const userId = variables['x-hasura-user-id'];
  return {
    role: variables['x-hasura-role'] ?? 'anonymous',
    userId: userId !== undefined && UUID.test(userId) ? userId.toLowerCase() : null,
  };
}

/** What an action that works on the database as the caller gets. */
export interface ActionContext {
  pool: pg.Pool;
  caller: Caller;
  /** Set as `hasura.user` in the action's transaction, as the engine does for mutations. */
  sessionVariables: Record<string, string>;
  /** The action's arguments, as the engine sends them. */
  input: Record<string, unknown>;
  /** The service's clock (injected in tests). */
  now: Date;
}
