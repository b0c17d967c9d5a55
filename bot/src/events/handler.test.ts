import type { AddressInfo } from 'node:net';

import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '@app/shared/log';

import type { Pool } from '../db.ts';
import { parseBotEnv } from '../env.ts';

import { eventsRouter } from './handler.ts';

/*
 * The events endpoint puts an event in the outbox and answers at once; the outbox sends it
 * (outbox.test.ts). With the database (real SQL): tests/integration/bot/.
 */

const SECRET = 'test-bot-events-secret-0123456789';
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

const ORDER = 'b4a1c2d3-0000-4000-8000-000000000001';
const event = (
  trigger: string,
  data: { old?: Record<string, unknown> | null; new: Record<string, unknown> } = {
    new: { id: ORDER },
  },
) => ({
  id: '3f2f5a4e-8a41-4c39-9a53-5d7e8c1b2a10',
  trigger: { name: trigger },
  event: { op: data.old ? 'UPDATE' : 'INSERT', data: { old: null, ...data } },
});

/** A pool that records statements and their values; `answer` decides each result. */
function fakePool(answer: (text: string) => Promise<unknown> = () => ok(1)) {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const pool = {
    query(text: string, values: unknown[] = []) {
      statements.push({ text, values });
      return answer(text);
    },
  } as unknown as Pool;
  return { pool, statements };
}
const ok = (rowCount: number, rows: unknown[] = []) => Promise.resolve({ rows, rowCount });

describe('the events endpoint', () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  async function serve(pool: Pool) {
    const env = parseBotEnv({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://unused',
      BOT_EVENTS_SECRET: SECRET,
    });
    const logger = createLogger('bot', { level: 'silent' });
    let kicks = 0;
    const outbox = { kick: () => void (kicks += 1) };
    const app = express().use(eventsRouter({ env, pool, outbox, logger }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    const post = async (body: unknown) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-events-secret': SECRET },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    return { post, kicks: () => kicks };
  }

  it('queues the event with the row it is about, answers at once and wakes the outbox', async () => {
    const { pool, statements } = fakePool();
    const { post, kicks } = await serve(pool);
    expect(await post(event('support_request_bot'))).toEqual({
      status: 200,
      body: { status: 'queued' },
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]!.text).toContain('INSERT INTO bot.handled_events');
    expect(statements[0]!.values.slice(0, 3)).toEqual([
      '3f2f5a4e-8a41-4c39-9a53-5d7e8c1b2a10',
      'support_request_bot',
      ORDER,
    ]);
    expect(kicks()).toBe(1);
  });

  it('answers a repeat as handled, without waking the outbox', async () => {
    const { pool } = fakePool((text) =>
      text.startsWith('INSERT') ? ok(0) : ok(1, [{ legacy: false }]),
    );
    const { post, kicks } = await serve(pool);
    expect(await post(event('order_created_bot'))).toEqual({
      status: 200,
      body: { status: 'already-handled' },
    });
    expect(kicks()).toBe(0);
  });

  it('records an event that asks for no message as done, and queues nothing', async () => {
    const { pool, statements } = fakePool();
    const { post, kicks } = await serve(pool);
    const unchanged = event('order_status_bot', {
      old: { id: ORDER, status: 'paid' },
      new: { id: ORDER, status: 'paid' },
    });
    expect(await post(unchanged)).toEqual({ status: 200, body: { status: 'nothing-to-send' } });
    expect(await post(event('a_trigger_the_bot_ignores'))).toEqual({
      status: 200,
      body: { status: 'nothing-to-send' },
    });
    expect(statements.map((statement) => statement.text)).toEqual([
      expect.stringContaining("'sent', now()"),
      expect.stringContaining("'sent', now()"),
    ]);
    expect(kicks()).toBe(0);
  });

  it('answers 503 while the database is unreachable, so the engine retries', async () => {
    const { pool } = fakePool(() => Promise.reject(refused()));
    const { post, kicks } = await serve(pool);
    expect(await post(event('order_created_bot'))).toEqual({
      status: 503,
      body: { code: 'delivery-failed' },
    });
    expect(kicks()).toBe(0);
  });
});
