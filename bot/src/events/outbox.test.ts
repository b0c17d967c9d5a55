import type { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '@app/shared/log';

import type { Pool } from '../db.ts';
import { parseBotEnv } from '../env.ts';

import { createOutbox, markSentEventually, type Outbox } from './outbox.ts';

/*
 * The outbox's sender against a pool that plays the database: what it records when a send
 * succeeds, fails, or succeeds while the database restarts, and that it keeps its claims fresh
 * while the throttler holds a message. With the database and a burst of more than a hundred
 * staff-chat messages through the engine: tests/integration/bot/burst.test.ts.
 */

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const logger = createLogger('bot', { level: 'silent' });
const env = parseBotEnv({
  NODE_ENV: 'test',
  DATABASE_URL: 'postgres://unused',
  BOT_EVENTS_SECRET: 'test-bot-events-secret-0123456789',
  TELEGRAM_STAFF_CHAT_IDS: '-1001',
});

const REQUEST = 'b4a1c2d3-0000-4000-8000-000000000001';
const EVENT = '3f2f5a4e-8a41-4c39-9a53-5d7e8c1b2a10';
const claimed = (attempts = 1) => ({
  event_id: EVENT,
  trigger_name: 'support_request_bot',
  subject_id: REQUEST,
  attempts,
});
const supportRequest = {
  id: REQUEST,
  name: 'Olena',
  email: 'olena@example.com',
  order_id: null,
  message: 'Where is my payout?',
  handled: false,
};

/**
 * A pool that hands out `queue` to the sender's claims, one batch at a time, answers the
 * support request, and records every statement; `down(text)` fails a statement as a lost
 * database.
 */
function fakePool(
  queue: Array<Array<ReturnType<typeof claimed>>>,
  down = (_text: string) => false,
) {
  const statements: Array<{ text: string; values: unknown[] }> = [];
  const pool = {
    query(text: string, values: unknown[] = []) {
      statements.push({ text, values });
      if (down(text)) return Promise.reject(refused());
      if (text.includes("SET status = 'sending'")) {
        const rows = queue.shift() ?? [];
        return Promise.resolve({ rows, rowCount: rows.length });
      }
      if (text.includes('FROM public.support_requests'))
        return Promise.resolve({ rows: [supportRequest], rowCount: 1 });
      if (text.includes('RETURNING status'))
        return Promise.resolve({ rows: [{ status: 'queued' }], rowCount: 1 });
      return Promise.resolve({ rows: [], rowCount: 1 });
    },
  } as unknown as Pool;
  const matching = (pattern: string) =>
    statements.filter((statement) => statement.text.includes(pattern));
  return { pool, statements, matching };
}

/** The Bot API: each sendMessage after `delayMs`, or failing while `failing()`. */
function fakeApi(options: { delayMs?: number; failing?: () => boolean } = {}) {
  const sent: unknown[][] = [];
  const api = {
    sendMessage: async (...args: unknown[]) => {
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      if (options.failing?.()) throw new Error('Call to sendMessage failed! (429: Too Many)');
      sent.push(args);
      return {};
    },
  } as unknown as Api;
  return { api, sent };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the outbox sender', () => {
  const outboxes: Outbox[] = [];
  afterEach(async () => {
    for (const outbox of outboxes.splice(0)) await outbox.stop();
  });
  const start = (deps: Parameters<typeof createOutbox>[0]) => {
    const outbox = createOutbox({ pollMs: 20, ...deps });
    outboxes.push(outbox);
    outbox.start();
    return outbox;
  };

  it('sends a queued event to the staff chats and marks it sent', async () => {
    const { pool, matching } = fakePool([[claimed()]]);
    const { api, sent } = fakeApi();
    start({ env, pool, api, logger });
    await until(() => matching("SET status = 'sent'").length === 1, 'the record');
    expect(sent).toHaveLength(1);
    expect(sent[0]![0]).toBe(-1001);
    expect(String(sent[0]![1])).toContain('Where is my payout?');
    expect(matching("SET status = 'sent'")[0]!.values).toEqual([EVENT]);
    // Nothing else is claimed or sent.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(1);
  });

  it('keeps a sent event when only its record failed, and records it once the database is back', async () => {
    let databaseUp = false;
    const { pool, matching } = fakePool(
      [[claimed()]],
      (text) => !databaseUp && text.includes("SET status = 'sent'"),
    );
    const { api, sent } = fakeApi();
    start({ env, pool, api, logger });
    await until(() => matching("SET status = 'sent'").length === 1, 'the first record');
    expect(sent).toHaveLength(1);
    databaseUp = true;
    await until(() => matching("SET status = 'sent'").length >= 2, 'the record, retried');
    // Never queued again (that would send it twice).
    expect(matching('RETURNING status')).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('queues a failed send again for later, and gives it up after the last attempt', async () => {
    const { pool, matching } = fakePool([[claimed(1)], [], [claimed(3)]]);
    const { api, sent } = fakeApi({ failing: () => true });
    start({ env, pool, api, logger, retryDelayMs: 5_000, maxAttempts: 3 });
    await until(() => matching('RETURNING status').length === 2, 'both failures recorded');
    const [first, last] = matching('RETURNING status');
    // event, attempt (the claim's token), attempts allowed, seconds until the next attempt.
    expect(first!.values).toEqual([EVENT, 1, 3, 5]);
    expect(last!.values).toEqual([EVENT, 3, 3, 5]);
    expect(first!.text).toContain("CASE WHEN attempts >= $3 THEN 'failed' ELSE 'queued' END");
    expect(matching("SET status = 'sent'")).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("gives up at once on Telegram's 403 (a user who blocked or never started the bot)", async () => {
    const { pool, matching } = fakePool([[claimed(1)]]);
    const forbidden = Object.assign(
      new Error(
        "Call to 'sendMessage' failed! (403: Forbidden: bot can't initiate conversation with a user)",
      ),
      { error_code: 403 },
    );
    const api = { sendMessage: () => Promise.reject(forbidden) } as unknown as Api;
    start({ env, pool, api, logger, retryDelayMs: 5_000, maxAttempts: 3 });
    await until(() => matching('RETURNING status').length === 1, 'the failure recorded');
    // The attempts allowed are the ones made: 'failed' now, never queued again.
    expect(matching('RETURNING status')[0]!.values).toEqual([EVENT, 1, 1, 5]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(matching('RETURNING status')).toHaveLength(1);
  });

  it('keeps its claims fresh while the throttler holds a message, and stops after', async () => {
    const { pool, matching } = fakePool([[claimed()]]);
    // A staff-chat message the throttler releases only after a while.
    const { api, sent } = fakeApi({ delayMs: 400 });
    start({ env, pool, api, logger, claimHeartbeatMs: 50 });
    await until(() => matching("SET status = 'sent'").length === 1, 'the record');
    expect(sent).toHaveLength(1);
    const renewals = matching('SET claimed_at = now()');
    // Renewed while sending (about every 50 ms over 400 ms), for this event.
    expect(renewals.length).toBeGreaterThanOrEqual(4);
    expect(renewals[0]!.values).toEqual([[EVENT]]);
    const count = renewals.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(matching('SET claimed_at = now()')).toHaveLength(count);
  });

  it('reads the outbox again after the database was unreachable', async () => {
    let databaseUp = false;
    const { pool, matching } = fakePool(
      [[claimed()]],
      (text) => !databaseUp && text.includes("SET status = 'sending'"),
    );
    const { api, sent } = fakeApi();
    start({ env, pool, api, logger });
    await until(() => matching("SET status = 'sending'").length >= 2, 'two reads');
    databaseUp = true;
    await until(() => sent.length === 1, 'the message');
  });

  it('retries the record only while the database is unreachable', async () => {
    let calls = 0;
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
