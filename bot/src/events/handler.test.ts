import type { AddressInfo } from 'node:net';

import express from 'express';
import type { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '@app/shared/log';

import type { Pool } from '../db.ts';
import { parseBotEnv } from '../env.ts';

import { eventsRouter, markSentEventually } from './handler.ts';

/*
 * A notification whose message went out while the database restarted: recording it as sent
 * fails. Dropping the claim and answering 503 (as for a failed send) would make the engine's
 * retry send the message a second time; instead the answer is "done" and the record is
 * retried until the database is back.
 */

const SECRET = 'test-bot-events-secret-0123456789';
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A pool that records statements; while `down`, matching statements fail as a lost database. */
function fakePool(down: (text: string) => boolean) {
  const statements: string[] = [];
  const pool = {
    query(text: string) {
      statements.push(text.trim().split(/\s+/).slice(0, 2).join(' '));
      if (down(text)) return Promise.reject(refused());
      return Promise.resolve({ rows: [], rowCount: 1 });
    },
    connect: () => Promise.reject(new Error('not used')),
  } as unknown as Pool;
  return { pool, statements };
}

const event = (trigger: string) => ({
  id: '3f2f5a4e-8a41-4c39-9a53-5d7e8c1b2a10',
  trigger: { name: trigger },
  event: { op: 'INSERT', data: { old: null, new: { id: 'b4a1c2d3-0000-4000-8000-000000000001' } } },
});

describe('the events endpoint while the database restarts', () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  async function serve(pool: Pool) {
    const env = parseBotEnv({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://unused',
      BOT_EVENTS_SECRET: SECRET,
    });
    const logger = createLogger('bot', { level: 'silent' });
    const app = express().use(eventsRouter({ env, pool, api: {} as Api, logger }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    return (body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-events-secret': SECRET },
        body: JSON.stringify(body),
      });
  }

  it('answers done when only recording the sent event failed, and records it once it can', async () => {
    let databaseUp = false;
    const { pool, statements } = fakePool(
      (text) => !databaseUp && text.includes("SET status = 'sent'"),
    );
    const post = await serve(pool);
    // An event of a trigger the bot ignores: "sent" at once, then the record fails.
    const response = await post(event('a_trigger_the_bot_ignores'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'handled' });
    // The claim was kept: no DELETE, so no retry can send it again.
    expect(statements.some((statement) => statement.startsWith('DELETE'))).toBe(false);
    databaseUp = true;
    const deadline = Date.now() + 5_000;
    const marks = () => statements.filter((statement) => statement === 'UPDATE bot.handled_events');
    while (marks().length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(marks().length).toBeGreaterThanOrEqual(2);
  });

  it('still drops the claim and answers 503 when the send itself failed', async () => {
    // Reading the order for the message fails: nothing was sent.
    const { pool, statements } = fakePool((text) => text.includes('FROM public.transactions'));
    const post = await serve(pool);
    const response = await post(event('order_created_bot'));
    expect(response.status).toBe(503);
    expect(statements.some((statement) => statement.startsWith('DELETE'))).toBe(true);
  });

  it('drops the claim of a failed send once the database is back', async () => {
    let databaseUp = false;
    const { pool, statements } = fakePool(
      (text) =>
        !databaseUp && (text.includes('FROM public.transactions') || text.startsWith('DELETE')),
    );
    const post = await serve(pool);
    const response = await post(event('order_created_bot'));
    expect(response.status).toBe(503);
    databaseUp = true;
    const deletes = () => statements.filter((statement) => statement.startsWith('DELETE'));
    const deadline = Date.now() + 5_000;
    while (deletes().length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // Tried at once (the database was down), then again until it went through.
    expect(deletes().length).toBeGreaterThanOrEqual(2);
  });

  it('keeps its claim fresh while the throttler holds the message', async () => {
    const order = {
      id: 'b4a1c2d3-0000-4000-8000-000000000001',
      number: '12',
      status: 'waiting_for_operator',
      send_amount: '0.015',
      send_currency: 'BTC',
      send_symbol: 'BTC',
      send_network: 'BTC',
      receive_amount: '1000',
      receive_currency: 'USDTTRC20',
      receive_symbol: 'USDT',
      receive_network: 'TRC20',
      email: 'owner@example.com',
      telegram_id: null,
      owner_locale: 'en',
      action_reason: null,
      hold_category: null,
      received_amount: null,
      created_utc: '2026-01-05 14:30',
      requisites_due_utc: '14:40',
      requisites_late: false,
    };
    const statements: string[] = [];
    const pool = {
      query(text: string) {
        statements.push(text);
        if (text.includes('FROM public.transactions'))
          return Promise.resolve({ rows: [order], rowCount: 1 });
        return Promise.resolve({ rows: [], rowCount: 1 });
      },
    } as unknown as Pool;
    const sent: unknown[] = [];
    const api = {
      // A staff-chat message the throttler releases only after a while.
      sendMessage: async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        sent.push(args);
        return {};
      },
    } as unknown as Api;
    const env = parseBotEnv({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://unused',
      BOT_EVENTS_SECRET: SECRET,
      TELEGRAM_STAFF_CHAT_IDS: '-1001',
    });
    const logger = createLogger('bot', { level: 'silent' });
    const app = express().use(eventsRouter({ env, pool, api, logger, claimHeartbeatMs: 50 }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const response = await fetch(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-events-secret': SECRET },
        body: JSON.stringify(event('order_created_bot')),
      },
    );
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(1);
    const renewals = statements.filter((text) => text.includes('SET claimed_at = now()'));
    // Renewed while sending (about every 50 ms over 400 ms), and not after.
    expect(renewals.length).toBeGreaterThanOrEqual(4);
    const count = renewals.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(statements.filter((text) => text.includes('SET claimed_at = now()')).length).toBe(count);
  });

  it('retries the record only while the database is unreachable', async () => {
    let calls = 0;
    const logger = createLogger('bot', { level: 'silent' });
    const flaky = {
      query: () => {
        calls += 1;
        if (calls < 3) return Promise.reject(refused());
        return Promise.resolve({ rows: [], rowCount: 1 });
      },
    } as unknown as Pool;
    expect(await markSentEventually({ pool: flaky, logger }, 'x', { firstWaitMs: 1 })).toBe(true);
    expect(calls).toBe(3);
    const broken = {
      query: () => Promise.reject(Object.assign(new Error('permission denied'), { code: '42501' })),
    } as unknown as Pool;
    expect(await markSentEventually({ pool: broken, logger }, 'x', { firstWaitMs: 1 })).toBe(false);
  });
});
