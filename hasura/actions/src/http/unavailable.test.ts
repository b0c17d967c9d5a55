import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createServicePool } from '@app/shared/db/service-pool';
import { unreachableDatabaseUrl } from '@app/shared/db/testing';

import { createActionsApp, SECRET_HEADER } from '../app.ts';

/*
 * The actions service while its database is away: every request is refused with a clear,
 * retryable 503 (`service-unavailable`, Retry-After), which the engine forwards with its code.
 * (That a dropped connection does not crash the process is the shared pool's test,
 * shared/src/db/service-pool.test.ts.)
 */

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('the actions service without its database', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers 503 service-unavailable with Retry-After, for actions and the health check', async () => {
    const pool = createServicePool(await unreachableDatabaseUrl(), 2, () => {});
    cleanups.push(() => pool.end());
    const secret = 'test-actions-secret-0123456789';
    const app = createActionsApp({
      env: { ACTIONS_SECRET: secret, QUOTE_MAX_RATE_AGE_SECONDS: 60 },
      pool,
      logger: silent,
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const expected = {
      message: 'The service is briefly unavailable. Please try again in a moment.',
      extensions: { code: 'service-unavailable' },
    };

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('1');
    expect(await health.json()).toEqual(expected);

    const quote = await fetch(`${base}/actions/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
      body: JSON.stringify({
        action: { name: 'quote' },
        input: { input: { from: 'BTC', to: 'USDTTRC20', side: 'send', amount: '0.015' } },
        session_variables: { 'x-hasura-role': 'anonymous' },
      }),
    });
    expect(quote.status).toBe(503);
    expect(quote.headers.get('retry-after')).toBe('1');
    expect(await quote.json()).toEqual(expected);
  });
});
