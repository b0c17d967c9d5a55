import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createServicePool } from '@app/shared/db/service-pool';
import { unreachableDatabaseUrl } from '@app/shared/db/testing';

import { createActionsApp, SECRET_HEADER } from '../app.ts';

/*
 * The e-mail event routes while the database is away: the same retryable answer as every
 * action (503 service-unavailable, Retry-After: 1), not a 500, so the engine retries the event.
 * (The routes with a database and a mail server: tests/integration/notifications/events.test.ts.)
 */

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const SECRET = 'test-actions-secret-0123456789';

/** A new order as the engine's trigger on public.transactions carries it. */
const order = () => ({
  id: randomUUID(),
  user_id: randomUUID(),
  number: 100001,
  send_currency: 'EUR',
  receive_currency: 'BTC',
  send_amount: '1000',
  receive_amount: '0.0123',
  status: 'waiting_for_operator',
  email: 'someone@example.com',
  full_name: 'Some One',
  locale: 'en',
  wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
});

const event = (trigger: string, op: 'INSERT' | 'UPDATE', data: Record<string, unknown>) => ({
  id: randomUUID(),
  created_at: new Date().toISOString(),
  trigger: { name: trigger },
  table: { schema: 'public', name: 'transactions' },
  event: { op, data, session_variables: null },
  delivery_info: { max_retries: 5, current_retry: 0 },
});

describe('the e-mail events without the database', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers 503 service-unavailable with Retry-After, so the engine retries', async () => {
    const pool = createServicePool(await unreachableDatabaseUrl(), 2, () => {});
    cleanups.push(() => pool.end());
    const sent: unknown[] = [];
    const app = createActionsApp({
      env: { ACTIONS_SECRET: SECRET, QUOTE_MAX_RATE_AGE_SECONDS: 60 },
      pool,
      logger: silent,
      mailer: {
        send: (message) => {
          sent.push(message);
          return Promise.resolve();
        },
        close: () => {},
      },
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const created = order();
    for (const payload of [
      event('order_created_email', 'INSERT', { old: null, new: created }),
      event('order_status_email', 'UPDATE', {
        old: created,
        new: { ...created, status: 'canceled', canceled_by: 'user' },
      }),
    ]) {
      const trigger = payload.trigger.name;
      const response = await fetch(`${base}/events/${trigger}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: SECRET },
        body: JSON.stringify(payload),
      });
      expect(response.status, trigger).toBe(503);
      expect(response.headers.get('retry-after'), trigger).toBe('1');
      expect(await response.json(), trigger).toEqual({
        message: 'The service is briefly unavailable. Please try again in a moment.',
        extensions: { code: 'service-unavailable' },
      });
    }
    expect(sent).toEqual([]);
  });
});
