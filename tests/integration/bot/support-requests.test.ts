import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import { insertUser } from '../../support/fixtures.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from '../actions/harness.ts';
import {
  buttonsOf,
  everythingSent,
  EVENTS_SECRET,
  startBotService,
  STAFF_CHAT,
  telegramUser,
  WEB_URL,
  type BotService,
} from './harness.ts';

/*
 * A support request sent through GraphQL reaches the staff chat by the real path: the engine's
 * support_request_bot event trigger posts to the bot service, which writes to the staff chat
 * through the Bot API (the emulator). A staff member whose Telegram is linked to their account
 * marks it handled from the chat; anyone else is told they cannot.
 */

const SUBMIT = `mutation ($input: SupportRequestInput!) {
  submitSupportRequest(input: $input) { id }
}`;

describe.each(databaseTargets)('support requests in the staff chat on $name', (target) => {
  let db: TestDatabase;
  let service: BotService;
  let stack: ActionsStack;

  beforeAll(async () => {
    db = await target.create();
    await prepareDatabase(db, {});
    service = await startBotService(db);
    stack = await startActionsStack(db, {
      env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
      engineEnvironment: {
        BOT_EVENTS_URL: `${service.url}/events`,
        BOT_EVENTS_SECRET: EVENTS_SECRET,
      },
    });
  });
  // Whatever the bot sent: no payment detail of any order or bank account in the database.
  afterEach(async () => {
    await scanForRequisites(db.pool, everythingSent(service.emulator));
  });
  afterAll(async () => {
    await stack?.close();
    await service?.close();
    await db?.dispose();
  });

  it('arrives once in the staff chat and is marked handled by linked staff only', async () => {
    const before = service.emulator.chatMessages(STAFF_CHAT).length;
    const answer = await stack.graphql(SUBMIT, {
      input: {
        name: 'Olena <b>K</b>',
        email: 'olena@example.com',
        orderId: '100042',
        message: 'Where is my payout?',
      },
    });
    const id = (answer.data?.['submitSupportRequest'] as { id: string } | undefined)?.id;
    expect(id, JSON.stringify(answer.errors)).toBeTruthy();

    const messages = await service.botMessages(STAFF_CHAT, before + 1, 20_000);
    const notice = messages.at(-1)!;
    const texts = botCatalogs.en.staff;
    // Plain text: what people typed stays as typed, never markup.
    expect(notice.text).toBe(
      'Support request from Olena <b>K</b> <olena@example.com>, order 100042:\nWhere is my payout?',
    );
    expect(buttonsOf(notice)).toEqual([
      { text: texts.openConsole, url: `${WEB_URL}/admin/support-requests` },
      { text: texts.markHandled, callback_data: `support:handled:${id}` },
    ]);

    // Someone in the chat who is not linked staff presses the button: nothing changes.
    const stranger = telegramUser();
    service.emulator.userPresses(STAFF_CHAT, stranger, notice.message_id, `support:handled:${id}`);
    await expect
      .poll(
        () => service.emulator.calls.filter((call) => call.method === 'answerCallbackQuery').length,
      )
      .toBeGreaterThan(0);
    const refused = service.emulator.calls
      .filter((call) => call.method === 'answerCallbackQuery')
      .at(-1);
    expect(refused?.params).toMatchObject({ text: texts.notStaff, show_alert: true });
    const { rows: open } = await db.pool.query<{ handled: boolean }>(
      'SELECT handled FROM support_requests WHERE id = $1',
      [id],
    );
    expect(open[0]?.handled).toBe(false);

    // A manager whose account is linked to their Telegram marks it handled.
    const manager = telegramUser();
    const managerId = await insertUser(db.pool, { email: 'manager-tg@example.com' });
    await db.pool.query('UPDATE portal_users SET telegram_id = $2 WHERE id = $1', [
      managerId,
      manager.id,
    ]);
    await db.pool.query("INSERT INTO roles (user_id, role_type) VALUES ($1, 'manager')", [
      managerId,
    ]);
    service.emulator.userPresses(STAFF_CHAT, manager, notice.message_id, `support:handled:${id}`);
    await expect
      .poll(
        async () =>
          (
            await db.pool.query<{ handled: boolean; handled_by: string | null }>(
              'SELECT handled, handled_by FROM support_requests WHERE id = $1',
              [id],
            )
          ).rows[0],
      )
      .toEqual({ handled: true, handled_by: managerId });
    await expect
      .poll(
        () =>
          service.emulator
            .chatMessages(STAFF_CHAT)
            .find((message) => message.message_id === notice.message_id)?.text,
      )
      .toContain(texts.handled.replace('{{who}}', 'manager-tg@example.com'));
    // The button is gone; only the console link stays.
    const edited = service.emulator
      .chatMessages(STAFF_CHAT)
      .find((message) => message.message_id === notice.message_id)!;
    expect(buttonsOf(edited).map((button) => button.text)).toEqual([texts.openConsole]);

    // However often the engine redelivers, the chat got one message.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(service.emulator.chatMessages(STAFF_CHAT)).toHaveLength(before + 1);
  });
});
