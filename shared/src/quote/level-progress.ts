/** A level as the progress needs it (`public.user_levels`). */
export interface LevelStep {
  status: string;
  min_orders: number;
}

/**
 * Where a user stands on the level ladder (decision 010: completing an order moves the user to
 * the highest level whose `min_orders` their completed orders reach; levels only move up):
 *
 * - `next`: the next level up, the completed orders it needs, how many the user has and the
 *   share done (0..1, for a progress bar);
 * - `top`: the user is on the highest level;
 * - `manual`: the user's status names no level (staff set it on purpose), so orders do not move
 *   it and no progress is shown.
 */
export type LevelProgress =
  | {
      kind: 'next';
      current: string;
      next: string;
      completedOrders: number;
      requiredOrders: number;
    }
  | { kind: 'top'; current: string; completedOrders: number }
  | { kind: 'manual'; current: string | null; completedOrders: number };

export function levelProgress(
  levels: readonly LevelStep[],
  status: string | null | undefined,
  completedOrders: number,
): LevelProgress {
  const done = Math.max(0, Math.floor(completedOrders));
  const current = levels.find((level) => level.status === status);
  if (!current) return { kind: 'manual', current: status ?? null, completedOrders: done };
  const next = levels
    .filter((level) => level.min_orders > current.min_orders)
    .sort((a, b) => a.min_orders - b.min_orders)[0];
  if (!next) return { kind: 'top', current: current.status, completedOrders: done };
  return {
    kind: 'next',
    current: current.status,
    next: next.status,
    // A level is reached on completion, so the count shown never passes the goal.
    completedOrders: Math.min(done, next.min_orders),
    requiredOrders: next.min_orders,
  };
}
