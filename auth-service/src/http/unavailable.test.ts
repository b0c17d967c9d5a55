import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createServicePool } from '@app/shared/db/service-pool';
import { unreachableDatabaseUrl } from '@app/shared/db/testing';
import { createLogger } from '@app/shared/log';

import { createApp } from '../app.ts';
import { parseAuthEnv } from '../env.ts';

/*
 * The auth service while its database is away: requests are refused with a clear, retryable
 * `service-unavailable` (503, Retry-After), never `internal-error`. (That a dropped connection
 * does not crash the process is the shared pool's test, shared/src/db/service-pool.test.ts.)
 */

describe('the auth service without its database', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers 503 service-unavailable with Retry-After', async () => {
    const url = await unreachableDatabaseUrl();
    const pool = createServicePool(url, 2, () => {});
    cleanups.push(() => pool.end());
    const auth = createApp({
      env: parseAuthEnv({ NODE_ENV: 'test', DATABASE_URL: url }),
      db: pool,
      logger: createLogger('auth', { level: 'silent' }),
      mailer: { send: async () => {}, close: () => {} },
    });
    const server = auth.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const [path, body] of [
      ['/refresh_tokens', { refreshToken: 'a'.repeat(43) }],
      ['/login', { email: 'someone@example.com', password: 'Some-password-1' }],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after'), path).toBe('1');
      expect(await response.json(), path).toEqual({
        code: 'service-unavailable',
        message: 'The service is briefly unavailable. Please try again in a moment',
      });
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
  });
});
