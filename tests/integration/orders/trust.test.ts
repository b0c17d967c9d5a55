import { describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';

import { CANCEL, CONFIRM, DEPOSIT, MINE, MINUTE, SUPPLY } from './trust-documents.ts';
import { useTrustWorld } from './trust-harness.ts';

/*
 * Issue 10's order paths through the real engine and actions service (decision 015), the clock:
 * the requisites promise and the payment window, the deadlines job on an injected clock, late
 * requisites and the re-quote in the user's favour (trust-harness.ts starts the world).
 * Payments: trust-payments.test.ts; creation, links and the requisites check:
 * trust-links.test.ts.
 */

describe.each(databaseTargets)('order trust paths on $name', (target) => {
  const world = useTrustWorld(target);
  const { clock, alice, staff, graphql, ok, order, create, awaitingPayment, runDeadlines } = world;

  it('promises the requisites within 10 minutes and starts the payment window only when they come', async () => {
    const before = Date.now();
    const id = await create();
    const created = await order(id);
    const due = Date.parse(created['requisites_due_at']!);
    expect(due).toBeGreaterThanOrEqual(before + 10 * MINUTE - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 10 * MINUTE + 1000);
    expect(created['pay_by']).toBeNull();

    await ok(graphql(SUPPLY, { id, address: DEPOSIT }, staff));
    const given = await order(id);
    // BTC is crypto: a 30-minute window from the moment the details were given.
    const payBy = Date.parse(given['pay_by']!);
    expect(payBy).toBeGreaterThan(Date.now() + 29 * MINUTE);
    expect(payBy).toBeLessThan(Date.now() + 31 * MINUTE);
  });

  it('runs the promise from the opening of the working hours for an order made outside them', async () => {
    // USDT -> UAH is handled 09:00-23:00 UTC+3 with a 22:30 cut-off: an order at 21:00 UTC
    // (midnight in Kyiv) tomorrow is handled from 09:00 Kyiv time, 06:00 UTC, the day after.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const night = Date.parse(`${tomorrow}T21:00:00Z`);
    clock.shift = night - Date.now();
    try {
      const id = await create({
        from: 'USDTTRC20',
        to: 'UAH',
        amount: '500',
        walletAddress: undefined,
        iban: 'UA213223130000026007233566001',
      });
      const due = Date.parse((await order(id))['requisites_due_at']!);
      expect(new Date(due).toISOString()).toBe(
        new Date(night + 9 * 3_600_000 + 10 * MINUTE).toISOString(),
      );
    } finally {
      clock.shift = 0;
    }
  });

  it('expires an unpaid order past pay_by by the clock, once, and never an order that was paid', async () => {
    const unpaid = await awaitingPayment();
    const paid = await awaitingPayment();
    await ok(graphql(CONFIRM, { id: paid }, staff));

    clock.shift = 29 * MINUTE;
    expect((await runDeadlines()).expired).toEqual([]);
    expect((await order(unpaid))['status']).toBe('waiting_for_payment');

    clock.shift = 31 * MINUTE;
    const { rows } = await world.db.pool.query<{ number: string }>(
      'SELECT number::text AS number FROM transactions WHERE id = $1',
      [unpaid],
    );
    expect((await runDeadlines()).expired).toContain(rows[0]!.number);
    const expired = await order(unpaid);
    expect(expired['status']).toBe('expired');
    expect(expired['expired_at']).not.toBeNull();
    expect((await order(paid))['status']).toBe('paid');
    // A second run finds nothing to do.
    expect((await runDeadlines()).expired).not.toContain(rows[0]!.number);
    clock.shift = 0;

    // The owner sees it; the history says so.
    const mine = await ok(graphql(MINE, { id: unpaid }, alice));
    expect((mine['transactions_by_pk'] as { status: string }).status).toBe('expired');
    const history = await world.db.pool.query(
      `SELECT 1 FROM transaction_status_history WHERE transaction_id = $1 AND to_status = 'expired'`,
      [unpaid],
    );
    expect(history.rowCount).toBe(1);

    // A payment that arrives late is never lost: the user is asked what to do.
    await ok(graphql(CONFIRM, { id: unpaid, received: '0.015' }, staff));
    const late = await order(unpaid);
    expect(late['status']).toBe('needs_user_action');
    expect(late['action_reason']).toBe('late_payment');
  });

  it('flags late requisites once, shows the queue position, and lets the user cancel', async () => {
    const first = await create();
    const second = await create();
    const position = async (id: string) =>
      (
        (await ok(graphql(MINE, { id }, alice)))['transactions_by_pk'] as {
          queue_position: number | null;
        }
      ).queue_position;
    const p1 = await position(first);
    const p2 = await position(second);
    expect(p1).not.toBeNull();
    expect(p2).toBe(p1! + 1);

    clock.shift = 11 * MINUTE;
    const report = await runDeadlines();
    clock.shift = 0;
    const flagged = await order(second);
    expect(flagged['requisites_late_at']).not.toBeNull();
    expect(report.flaggedLate.length).toBeGreaterThanOrEqual(2);
    clock.shift = 12 * MINUTE;
    const again = await runDeadlines();
    clock.shift = 0;
    expect(again.flaggedLate).toEqual([]);
    expect((await order(second))['requisites_late_at']).toEqual(flagged['requisites_late_at']);

    // Cancelling costs nothing and is the owner's right while the operator is late.
    const canceled = await ok(graphql(CANCEL, { id: second }, alice));
    expect((canceled['cancelExchange'] as { status: string }).status).toBe('canceled');
    expect(await position(second)).toBeNull();
  });

  it('re-quotes an order whose requisites come late, keeping the better amount for the user', async () => {
    const id = await create();
    const locked = await order(id);
    // The market moved up for BTC: a newer price from another provider.
    await world.db.pool.query(
      `INSERT INTO rates (currency_code, provider, price_usdt, fetched_at)
       SELECT 'BTC', 'test-up', price_usdt * 1.05, now() FROM rates
        WHERE currency_code = 'BTC' ORDER BY fetched_at DESC LIMIT 1`,
    );
    try {
      clock.shift = 11 * MINUTE;
      await ok(graphql(SUPPLY, { id, address: DEPOSIT }, staff));
      clock.shift = 0;
      const requoted = await order(id);
      expect(requoted['requoted_at']).not.toBeNull();
      expect(requoted['quoted_receive_amount']).toBe(locked['receive_amount']);
      expect(requoted['quoted_rate']).toBe(locked['rate']);
      expect(Number(requoted['receive_amount'])).toBeGreaterThan(Number(locked['receive_amount']));

      // In time, the locked quote holds whatever the market does.
      const onTime = await create();
      const onTimeLocked = await order(onTime);
      await ok(graphql(SUPPLY, { id: onTime, address: DEPOSIT }, staff));
      const kept = await order(onTime);
      expect(kept['receive_amount']).toBe(onTimeLocked['receive_amount']);
      expect(kept['requoted_at']).toBeNull();
    } finally {
      clock.shift = 0;
      await world.db.pool.query(`DELETE FROM rates WHERE provider = 'test-up'`);
    }

    // Late, but the market moved against the user: the locked figures stay.
    const down = await create();
    const downLocked = await order(down);
    await world.db.pool.query(
      `INSERT INTO rates (currency_code, provider, price_usdt, fetched_at)
       SELECT 'BTC', 'test-down', price_usdt * 0.9, now() FROM rates
        WHERE currency_code = 'BTC' ORDER BY fetched_at DESC LIMIT 1`,
    );
    try {
      clock.shift = 11 * MINUTE;
      await ok(graphql(SUPPLY, { id: down, address: DEPOSIT }, staff));
    } finally {
      clock.shift = 0;
      await world.db.pool.query(`DELETE FROM rates WHERE provider = 'test-down'`);
    }
    const downAfter = await order(down);
    expect(downAfter['receive_amount']).toBe(downLocked['receive_amount']);
    expect(downAfter['requoted_at']).toBeNull();

    // Nobody can change the figures by hand, not even the database owner outside the re-quote.
    await expect(
      world.db.pool.query(
        `UPDATE transactions SET receive_amount = receive_amount * 2 WHERE id = $1`,
        [down],
      ),
    ).rejects.toThrow(/cannot be changed/);
  });
});
