import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from '../actions/harness.ts';
import { EVENTS_SECRET, startBotService, STAFF_CHAT, type BotService } from './harness.ts';

/*
 * A burst of staff-chat notifications through the real path: 120 support requests, the
 * engine's support_request_bot trigger (the product metadata: 10 retries 30 s apart, a 10 s
 * timeout) posting to the bot service, the bot writing to the staff chat through the Bot API
 * emulator. Telegram lets a bot post 20 messages a minute in a group; here the throttler's
 * minute is 3 s, so the burst takes about 15 s to send: longer than the trigger's timeout, as
 * a real burst of more than 100 takes longer than all its retries. The bot queues each event
 * in its outbox and answers at once, so the engine delivers every event on its first try, and
 * every message goes out once.
 */

const BURST = 120;
/** Telegram's pace in a group (20 messages a minute, one a second at most), 20 times faster. */
const GROUP_MINUTE_MS = 3_000;

describe.each(databaseTargets)('a burst of staff-chat notifications on $name', (target) => {
  let db: TestDatabase;
  let service: BotService;
  let stack: ActionsStack;

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    service = await startBotService(
      db,
      {},
      {
        throttle: {
          group: {
            maxConcurrent: 1,
            minTime: 1_000 / 20,
            reservoir: 20,
            reservoirRefreshAmount: 20,
            reservoirRefreshInterval: GROUP_MINUTE_MS,
          },
        },
      },
    );
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
      engineEnvironment: {
        BOT_EVENTS_URL: `${service.url}/events`,
        BOT_EVENTS_SECRET: EVENTS_SECRET,
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await service?.close();
    await db?.dispose();
  });

  it(`sends each of ${BURST} support requests to the staff chat once, each event delivered on its first try`, async () => {
    const burst = randomUUID().slice(0, 8);
    const { rows: requests } = await db.pool.query<{ id: string; message: string }>(
      `INSERT INTO support_requests (name, email, message)
       SELECT 'Burst', 'burst-' || n || '-' || $1 || '@example.com', 'Burst ' || $1 || ' #' || n || '.'
         FROM generate_series(1, $2::int) AS n
       RETURNING id::text, message`,
      [burst, BURST],
    );
    expect(requests).toHaveLength(BURST);

    const messages = await service.botMessages(STAFF_CHAT, BURST, 90_000);
    const started = Math.min(...messages.map((message) => message.date));
    const ended = Math.max(...messages.map((message) => message.date));
    await service.settled();
    // Nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = service.emulator.chatMessages(STAFF_CHAT).filter((message) => message.from.is_bot);
    for (const request of requests)
      expect(
        sent.filter((message) => message.text.includes(request.message)),
        request.message,
      ).toHaveLength(1);
    expect(sent).toHaveLength(BURST);
    // At the throttler's pace: the last messages went out well after the trigger's timeout.
    expect(ended - started).toBeGreaterThanOrEqual(10);

    // The engine: every event delivered, on its first try, none failed.
    const deadline = Date.now() + 30_000;
    let events: Array<{ delivered: boolean; error: boolean; tries: number }> = [];
    for (;;) {
      ({ rows: events } = await db.pool.query(
        `SELECT delivered, error, tries FROM hdb_catalog.event_log
          WHERE trigger_name = 'support_request_bot' AND payload->'data'->'new'->>'id' = ANY($1)`,
        [requests.map((request) => request.id)],
      ));
      if (events.length === BURST && events.every((event) => event.delivered)) break;
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(events).toHaveLength(BURST);
    expect(events.filter((event) => !event.delivered || event.error || event.tries !== 1)).toEqual(
      [],
    );

    // The bot's outbox: each event sent, on its first attempt.
    const { rows: outbox } = await db.pool.query<{ status: string; attempts: number; n: number }>(
      `SELECT status, attempts, count(*)::int AS n FROM bot.handled_events
        WHERE trigger_name = 'support_request_bot' AND subject_id = ANY($1::uuid[])
        GROUP BY status, attempts`,
      [requests.map((request) => request.id)],
    );
    expect(outbox).toEqual([{ status: 'sent', attempts: 1, n: BURST }]);
  });
});
