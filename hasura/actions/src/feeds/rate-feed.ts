import type pg from 'pg';

import { ActionFailure } from '../http/errors.ts';

/** `rateFeed` (issue 10): being written; answers 'unavailable' until then. */
export async function rateFeed(_options: {
  pool: pg.Pool;
  now: Date;
  maxRateAgeSeconds: number;
}): Promise<{ xml: string; generatedAt: string }> {
  throw new ActionFailure('unavailable', 'The rate feed is not available yet.', 503);
}
