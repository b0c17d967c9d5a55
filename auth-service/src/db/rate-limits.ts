import type { Db } from './index.ts';

export interface Hit {
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one attempt against each key (fixed windows in auth.rate_limits, so every instance
 * shares them) and returns the seconds to wait when any key is over its limit, else 0.
 */
export async function countHits(db: Db, hits: readonly Hit[]): Promise<number> {
  if (hits.length === 0) return 0;
  // Sorted keys: two requests lock rows in one order, so they cannot deadlock.
  const sorted = [...hits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const { rows } = await db.query<{ key: string; hits: number; retry_after: number }>(
    `INSERT INTO auth.rate_limits AS r (key, hits, reset_at)
     SELECT k, 1, now() + make_interval(secs => w)
       FROM unnest($1::text[], $2::int[]) AS x(k, w)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
       reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
     RETURNING key, hits, GREATEST(1, ceil(extract(epoch FROM reset_at - now())))::int AS retry_after`,
    [sorted.map((hit) => hit.key), sorted.map((hit) => hit.windowSeconds)],
  );
  let wait = 0;
  for (const row of rows) {
    const hit = sorted.find((candidate) => candidate.key === row.key);
    if (hit && row.hits > hit.limit) wait = Math.max(wait, row.retry_after);
  }
  return wait;
}

/** Deletes expired rows of every auth table; run now and then by main.ts. */
export async function deleteExpired(db: Db): Promise<void> {
  await db.query(`DELETE FROM auth.rate_limits WHERE reset_at < now() - interval '1 hour'`);
  await db.query(`DELETE FROM auth.login_codes WHERE expires_at < now() - interval '1 day'`);
  await db.query(
    `DELETE FROM auth.password_reset_tokens WHERE expires_at < now() - interval '1 day'`,
  );
  await db.query(`DELETE FROM auth.refresh_tokens WHERE expires_at < now() - interval '1 day'`);
}
