/** Status of the level that applies when none matches the user's status (spec section 4). */
export const DEFAULT_LEVEL_STATUS = 'new';

/**
 * The user's level (spec section 4): the level whose `status` equals the user's status, else the
 * level with status `new`, else `undefined` (no levels configured: the caller must refuse).
 *
 * @example pickLevel(levels, user.status)?.buy_margin
 */
export function pickLevel<T extends { status: string }>(
  levels: readonly T[],
  status: string | null | undefined,
): T | undefined {
  return (
    levels.find((level) => level.status === status) ??
    levels.find((level) => level.status === DEFAULT_LEVEL_STATUS)
  );
}
