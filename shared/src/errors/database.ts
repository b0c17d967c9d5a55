/*
 * The database's refusals as clients receive them through the GraphQL engine (decision 032).
 *
 * A trigger that refuses a change raises `check_violation` with a message that starts with a
 * stable refusal code and a colon (`bank-account-details-fixed: bank account … cannot be
 * changed`). Hasura answers a check violation as `permission-error` with the message behind its
 * "Check constraint violation. " prefix, and sends nothing else of the error to a non-admin
 * role (no constraint name, no SQLSTATE), so the code at the start of the message is the
 * contract: clients branch on it, never on the English after it.
 */

/** Hasura's prefix of a check violation's message (graphql-engine, `mkTxErrorHandler`). */
export const CHECK_VIOLATION_PREFIX = 'Check constraint violation. ';

/** The refusal codes the migrations' triggers raise, each at the start of its message. */
export const DATABASE_REFUSALS = [
  'bank-account-details-fixed',
  'email-not-confirmed',
  'sandbox-account',
] as const;

export type DatabaseRefusal = (typeof DATABASE_REFUSALS)[number];

const REFUSAL_AT_START = new RegExp(
  `^(?:${CHECK_VIOLATION_PREFIX.replace('.', '\\.')})?(${DATABASE_REFUSALS.join('|')}):`,
);

/** The messages of a failed request: its own and each GraphQL error's (ours or Apollo's). */
function messagesOf(error: unknown): string[] {
  if (!(error instanceof Error)) return [];
  const errors: unknown = (error as { errors?: unknown }).errors;
  const entries = Array.isArray(errors)
    ? errors.map((entry: unknown) => (entry as { message?: unknown } | null)?.message)
    : [];
  return [error.message, ...entries].filter((message) => typeof message === 'string');
}

/** The trigger's refusal behind a failed request, if it is one of DATABASE_REFUSALS. */
export function databaseRefusal(error: unknown): DatabaseRefusal | undefined {
  for (const message of messagesOf(error)) {
    const match = REFUSAL_AT_START.exec(message);
    if (match) return match[1] as DatabaseRefusal;
  }
  return undefined;
}

/** Whether a failed request was refused by a CHECK (a table's or a trigger's). */
export const isCheckViolation = (error: unknown): boolean =>
  messagesOf(error).some((message) => message.startsWith(CHECK_VIOLATION_PREFIX));
