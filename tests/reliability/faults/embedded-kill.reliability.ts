import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

import { provision, startEmbeddedProcess, testPool, type EmbeddedProcess } from './databases.ts';
import { delay } from './services.ts';

/*
 * Issue 11, "Faults": the embedded database (PGlite behind the socket server, in a process of
 * its own as the launcher runs it) is killed with SIGKILL in the middle of a stream of order
 * inserts, and started again on the same data folder, several times. Writers insert orders
 * through pg (alone, and two to a transaction) and record each one only once its COMMIT was
 * acknowledged.
 *
 * Proven: every acknowledged order is there after each restart (lost_orders = 0); a
 * two-order transaction is there whole or not at all; no idempotency key holds two orders;
 * the restarted database serves reads and writes. How PGlite's storage makes that hold is in
 * docs/decisions/003-embedded-postgres.md, "Durability".
 */

const CYCLES = byProfile({ short: 2, full: 5 });
const WRITE_MS = byProfile({ short: 2_500, full: 8_000 });
const WRITERS = 4;

const INSERT = `
INSERT INTO public.transactions
  (user_id, send_currency, receive_currency, send_amount, receive_amount, rate, email, full_name,
   wallet_address, reason, locale, idempotency_key, amount_usdt, requisites_due_at)
VALUES ($1, 'BTC', 'USDTTRC20', 0.015, 1000, 66666.666667, $2, 'Durability Check',
        'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', 'Savings', 'en', $3, 1000,
        now() + interval '10 minutes')
RETURNING id::text`;

interface Acknowledged {
  id: string;
  key: string;
  /** Keys committed together with this one (a two-order transaction). */
  group: string;
}

describe('the embedded database killed (-9) mid-stream', () => {
  let embedded: EmbeddedProcess;
  const userId = randomUUID();
  const email = `durability-${randomUUID().slice(0, 6)}@example.com`;

  beforeAll(async () => {
    embedded = await startEmbeddedProcess();
    await provision(embedded.url);
    const pool = testPool(embedded.url, 1);
    // Confirmed: an unconfirmed account has few orders (decision 016).
    await pool.query(
      'INSERT INTO public.portal_users (id, email, is_verified_email) VALUES ($1, $2, true)',
      [userId, email],
    );
    await pool.end();
  });
  afterAll(async () => {
    await embedded?.dispose();
  });

  it('keeps every acknowledged order across kill -9 and restart', async () => {
    const acknowledged: Acknowledged[] = [];
    /** Groups whose COMMIT was sent but not acknowledged: there whole or not at all. */
    const inDoubt: string[][] = [];
    const cycles: Array<Record<string, number>> = [];
    /** Failures before the kill: a defect (a writer must only fail because the database died). */
    const earlyFailures: string[] = [];
    let acknowledgedBefore = 0;

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      let stop = false;
      let killing = false;
      const writer = async (index: number) => {
        const client = new pg.Client({ connectionString: embedded.url });
        client.on('error', () => {});
        await client.connect();
        const pair = index % 2 === 1;
        try {
          while (!stop) {
            const keys = pair ? [randomUUID(), randomUUID()] : [randomUUID()];
            const group = keys.join('+');
            let committing = false;
            try {
              if (pair) await client.query('BEGIN');
              const ids: string[] = [];
              for (const key of keys) {
                if (!pair) committing = true;
                const { rows } = await client.query<{ id: string }>(INSERT, [userId, email, key]);
                ids.push(rows[0]!.id);
              }
              if (pair) {
                committing = true;
                await client.query('COMMIT');
              }
              keys.forEach((key, position) =>
                acknowledged.push({ id: ids[position]!, key, group }),
              );
            } catch (error) {
              if (committing) inDoubt.push(keys);
              if (!stop && !killing) earlyFailures.push(String(error));
              return;
            }
          }
        } finally {
          await client.end().catch(() => {});
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
      await delay(WRITE_MS);
      const before = acknowledged.length;
      killing = true;
      await embedded.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      const killedAt = Date.now();
      await embedded.start();
      const restartMs = Date.now() - killedAt;
      cycles.push({ acknowledged: before - acknowledgedBefore, restartMs });
      acknowledgedBefore = before;
    }

    const pool = testPool(embedded.url, 2);
    try {
      const { rows } = await pool.query<{ id: string; idempotency_key: string }>(
        `SELECT id::text, idempotency_key FROM public.transactions WHERE user_id = $1`,
        [userId],
      );
      const byKey = new Map<string, string[]>();
      for (const row of rows)
        byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), row.id]);
      const lost = acknowledged.filter((order) => !(byKey.get(order.key) ?? []).includes(order.id));
      const doubled = [...byKey.values()].filter((ids) => ids.length > 1).length;
      const torn = inDoubt.filter((keys) => {
        const present = keys.filter((key) => byKey.has(key)).length;
        return present !== 0 && present !== keys.length;
      });
      // The restarted database still takes writes and reads them back.
      const key = randomUUID();
      const { rows: written } = await pool.query<{ id: string }>(INSERT, [userId, email, key]);
      const { rows: readBack } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM public.transactions WHERE id = $1`,
        [written[0]!.id],
      );
      const history = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM public.transactions t
          WHERE t.user_id = $1
            AND NOT EXISTS (SELECT 1 FROM public.transaction_status_history h
                             WHERE h.transaction_id = t.id)`,
        [userId],
      );

      const details = {
        cycles,
        earlyFailures,
        acknowledged: acknowledged.length,
        rows: rows.length,
        inDoubt: inDoubt.length,
        inDoubtCommitted: inDoubt.filter((keys) => byKey.has(keys[0]!)).length,
        torn: torn.length,
        doubled,
        ordersWithoutHistory: history.rows[0]!.n,
        settings: 'PGlite 0.5.14: NodeFS data folder, relaxedDurability false, fsync off (-F)',
      };
      recordFigures({
        check: 'faults/embedded-kill',
        figures: { lost_orders: lost.length, duplicate_actions: doubled },
        details,
      });
      const context = JSON.stringify(details, null, 2);
      expect(earlyFailures, context).toEqual([]);
      expect(acknowledged.length, context).toBeGreaterThan(0);
      expect(
        lost.map((order) => order.key),
        context,
      ).toEqual([]);
      expect(torn, context).toEqual([]);
      expect(doubled, context).toBe(0);
      expect(history.rows[0]!.n, context).toBe(0);
      expect(readBack[0]!.n, context).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
