import type { ExchangeProblem } from '@app/shared/forms';

import { ActionFailure } from './errors.ts';

/*
 * Reading an action's arguments: every value arrives as the engine sent it (numbers as their
 * digits, see payload.ts) and is checked here before anything uses it.
 */

/** The e-mail rule of the tables' checks (transactions, support_requests). */
export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A trimmed non-empty string, else undefined. */
export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * A refused argument: its `field`, and where a form shows it, the `problem` as the order form's
 * codes (`required`, `too-long`, ...), which the clients translate instead of the message.
 */
export const invalidInput = (
  message: string,
  field: string,
  problem?: ExchangeProblem,
): ActionFailure =>
  new ActionFailure('invalid-input', message, 400, {
    field,
    ...(problem === undefined ? {} : { problem }),
  });

/** An optional uuid argument, lower-cased. */
export function uuidArgument(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !UUID.test(value))
    throw invalidInput(`${name}: expected a uuid.`, name);
  return value.toLowerCase();
}

/** A required uuid argument. */
export function requiredUuid(input: Record<string, unknown>, name: string): string {
  const id = uuidArgument(input, name);
  if (id === undefined) throw invalidInput(`${name}: The field is required.`, name);
  return id;
}

/** An optional text argument of at most `max` characters. */
export function optionalText(
  input: Record<string, unknown>,
  name: string,
  max: number,
): string | undefined {
  const value = text(input[name]);
  if (value !== undefined && value.length > max)
    throw invalidInput(`${name}: at most ${max} characters.`, name);
  return value;
}

/** A required text argument of at most `max` characters. */
export function requiredText(input: Record<string, unknown>, name: string, max: number): string {
  const value = optionalText(input, name, max);
  if (value === undefined) throw invalidInput(`${name}: The field is required.`, name);
  return value;
}
