import { ActionFailure } from './errors.ts';
import type { Caller } from './payload.ts';

const STAFF_ROLES = new Set(['manager', 'administrator']);

/** Staff actions: the engine's permissions already say so, this holds if metadata drifts. */
export function requireStaff(caller: Caller): asserts caller is Caller & { userId: string } {
  if (!STAFF_ROLES.has(caller.role) || caller.userId === null)
    throw new ActionFailure('access-denied', 'This action is for staff.', 403);
}

/** Actions on the caller's own rows. */
export function requireUser(
  caller: Caller,
  message: string,
): asserts caller is Caller & { userId: string } {
  if (caller.role !== 'user' || caller.userId === null)
    throw new ActionFailure('access-denied', message, 403);
}

/** Administrator actions (appointing and dismissing managers). */
export function requireAdministrator(
  caller: Caller,
): asserts caller is Caller & { userId: string } {
  if (caller.role !== 'administrator' || caller.userId === null)
    throw new ActionFailure('access-denied', 'This action is for administrators.', 403);
}
