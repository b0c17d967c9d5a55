import type pg from 'pg';
import { describe, expect, it } from 'vitest';

import { runRetrying } from './sql.ts';

/** A pool whose first `failures` queries fail with `error`. */
function flakyPool(failures: number, error: Error) {
  let calls = 0;
  const pool = {
    query: () => {
      calls += 1;
      if (calls <= failures) return Promise.reject(error);
      return Promise.resolve({ rows: [{ updated: 1 }] });
    },
  } as unknown as pg.Pool;
  return { pool, calls: () => calls };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
  code: 'ECONNREFUSED',
});

describe('recording an outcome across a database restart', () => {
  it('tries again while the database is unreachable, until it answers', async () => {
    const { pool, calls } = flakyPool(3, refused);
    const result = await runRetrying<{ updated: number }>(pool, 'UPDATE', [], { withinMs: 10_000 });
    expect(result.rows).toEqual([{ updated: 1 }]);
    expect(calls()).toBe(4);
  });

  it('gives up after its time, and at once on any other error', async () => {
    const down = flakyPool(1_000, refused);
    await expect(runRetrying(down.pool, 'UPDATE', [], { withinMs: 300 })).rejects.toBe(refused);
    expect(down.calls()).toBeGreaterThan(1);
    const broken = Object.assign(new Error('syntax error'), { code: '42601' });
    const bad = flakyPool(1, broken);
    await expect(runRetrying(bad.pool, 'UPDATE', [])).rejects.toBe(broken);
    expect(bad.calls()).toBe(1);
  });

  it('stops when the engine closes (the signal aborts)', async () => {
    const { pool, calls } = flakyPool(1_000, refused);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    await expect(
      runRetrying(pool, 'UPDATE', [], { withinMs: 30_000, signal: controller.signal }),
    ).rejects.toBe(refused);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(calls()).toBeGreaterThan(1);
  });
});
