import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { resources } from '@app/shared/i18n';
import { botCatalogs } from '@app/shared/i18n/bot';

import { databaseTargets } from '../../support/databases.ts';
import { insertOrder } from '../../support/fixtures.ts';
import { scanForRequisites } from '../../support/requisites-scan.ts';

import { event, LANGUAGES, useBotWorld } from './bot-world.ts';
import { buttonsOf, everythingSent, MINIAPP_URL, telegramUser } from './harness.ts';

/*
 * The bot offline against the Bot API emulator (issue: bot): every command in en, ru and ua,
 * the web_app buttons with the mini-app's URL and deep link, the menu button, and the side
 * states of decision 015 told to their owners and named in /history. Orders have payment
 * details of both kinds (a deposit address with a memo, a bank account with a reference), and
 * after each test everything the bot sent is scanned for every one of them (bot-world.ts):
 * none may appear, and the last test checks the scan saw both kinds. The event triggers'
 * deliveries through the outbox: bot-events.test.ts.
 */

describe.each(databaseTargets)('the Telegram bot on $name', (target) => {
  const world = useBotWorld(target);
  const { linkedAccount, orderIn } = world;

  it.each(LANGUAGES)(
    '/start in %s greets and opens the mini-app, passing the deep link on',
    async (code, locale) => {
      const user = telegramUser(code, 'Taras');
      const reply = await world.service.say(user, '/start');
      const texts = botCatalogs[locale];
      expect(reply.text).toBe(texts.start.greeting.replace('{{name}}', 'Taras'));
      expect(buttonsOf(reply)).toEqual([{ text: texts.start.open, web_app: { url: MINIAPP_URL } }]);
      // The chat's menu button speaks the person's language (the default one is English).
      expect(world.service.emulator.menuButtonOf(user.id)).toEqual({
        type: 'web_app',
        text: texts.menu,
        web_app: { url: MINIAPP_URL },
      });
      // An order's link says so on its button.
      const order = await world.service.say(user, `/start order_${randomUUID()}`);
      expect(buttonsOf(order)[0]?.text).toBe(texts.start.openOrder);

      const orderId = randomUUID();
      const linked = await world.service.say(user, `/start order_${orderId}__ref_alice`);
      const [button] = buttonsOf(linked);
      const url = new URL((button?.['web_app'] as { url: string }).url);
      expect(`${url.origin}${url.pathname}`).toBe(MINIAPP_URL);
      expect(url.searchParams.get('startapp')).toBe(`order_${orderId}__ref_alice`);

      const pair = await world.service.say(user, '/start pair_btc-to-xmr');
      expect(buttonsOf(pair)[0]?.text).toBe(
        texts.start.openPair.replace('{{from}}', 'BTC').replace('{{to}}', 'XMR'),
      );
    },
  );

  it.each(LANGUAGES)('/help, /support and plain text in %s', async (code, locale) => {
    const user = telegramUser(code);
    const texts = botCatalogs[locale];
    expect((await world.service.say(user, '/help')).text).toBe(texts.help.text);
    const support = await world.service.say(user, '/support');
    expect(support.text).toContain(world.service.env.PUBLIC_CONTACT_EMAIL);
    expect(support.text).toContain(world.service.env.PUBLIC_TELEGRAM_CHANNEL_URL);
    const prefix = locale === 'en' ? '' : `/${locale}`;
    expect(buttonsOf(support)).toEqual([
      { text: texts.support.form, url: `https://exchange.test${prefix}/contact` },
    ]);
    expect((await world.service.say(user, 'hello?')).text).toBe(texts.fallback);
  });

  it.each(LANGUAGES)(
    '/history in %s lists the latest orders with a button into each',
    async (code, locale) => {
      const stranger = telegramUser(code);
      expect((await world.service.say(stranger, '/history')).text).toBe(
        botCatalogs[locale].history.noAccount,
      );

      const { user, id } = await linkedAccount(code, locale);
      expect((await world.service.say(user, '/history')).text).toBe(
        botCatalogs[locale].history.empty,
      );
      const first = await insertOrder(world.db.pool, id);
      const second = await orderIn(id, 'canceled', { send_amount: '0.5' });
      const reply = await world.service.say(user, '/history');
      const statuses = resources[locale].exchange.transaction.statuses;
      expect(reply.text.split('\n')).toEqual([
        botCatalogs[locale].history.title,
        `№${second.number} · 0.5 BTC → 1432.5 USDT (TRC20) · ${statuses.canceled}`,
        `№${first.number} · 0.015 BTC → 1432.5 USDT (TRC20) · ${statuses.waiting_for_operator}`,
      ]);
      expect(buttonsOf(reply).map((button) => (button['web_app'] as { url: string }).url)).toEqual([
        `${MINIAPP_URL}?startapp=order_${second.id}`,
        `${MINIAPP_URL}?startapp=order_${first.id}`,
      ]);
    },
  );

  it('sets the commands in three languages and the menu button that opens the mini-app', () => {
    expect(world.service.emulator.menuButton).toEqual({
      type: 'web_app',
      text: botCatalogs.en.menu,
      web_app: { url: MINIAPP_URL },
    });
    for (const [languageCode, locale] of [
      ['', 'en'],
      ['ru', 'ru'],
      ['uk', 'ua'],
    ] as const) {
      expect(world.service.emulator.commands.get(`all_private_chats|${languageCode}`)).toEqual(
        (['start', 'history', 'help', 'support'] as const).map((command) => ({
          command,
          description: botCatalogs[locale].commands[command],
        })),
      );
    }
  });

  it.each(LANGUAGES)(
    'tells the owner of each side state in %s, with its reason, and no payment details',
    async (code, locale) => {
      const { user, id } = await linkedAccount(code, locale);
      const texts = botCatalogs[locale].status;
      const names = resources[locale].trust.statuses;
      const changed = (number: string, status: keyof typeof names) =>
        texts.changed.replace('{{number}}', number).replace('{{status}}', names[status]);
      const cases = [
        {
          status: 'on_hold',
          kind: 'bank',
          lines: (n: string) => [
            changed(n, 'on_hold'),
            texts.holdCategories.source_of_funds,
            texts.on_hold,
          ],
        },
        {
          status: 'needs_user_action',
          kind: 'crypto',
          lines: (n: string) => [
            changed(n, 'needs_user_action'),
            texts.actionReasons.underpaid
              .replace('{{received}}', '0.014 BTC')
              .replace('{{expected}}', '0.015 BTC'),
            texts.needs_user_action,
          ],
        },
        {
          status: 'refund_required',
          kind: 'bank',
          lines: (n: string) => [
            changed(n, 'needs_user_action'),
            texts.actionReasons.refund_required,
          ],
        },
        {
          status: 'refund_in_progress',
          kind: 'crypto',
          lines: (n: string) => [changed(n, 'refund_in_progress'), texts.refund_in_progress],
        },
        {
          status: 'refunded',
          kind: 'bank',
          lines: (n: string) => [changed(n, 'refunded'), texts.refunded],
        },
        {
          status: 'expired',
          kind: 'crypto',
          lines: (n: string) => [changed(n, 'expired'), texts.expired],
        },
      ] as const;
      let count = 0;
      for (const { status, kind, lines } of cases) {
        const order = await orderIn(id, status, {}, kind);
        const { rows } = await world.db.pool.query<{ status: string }>(
          'SELECT status FROM transactions WHERE id = $1',
          [order.id],
        );
        const delivery = event(
          'order_status_bot',
          { id: order.id, status: rows[0]!.status },
          { id: order.id, status: 'waiting_for_payment' },
        );
        expect(await world.service.postEvent(delivery)).toEqual({
          status: 200,
          body: { status: 'queued' },
        });
        expect((await world.service.postEvent(delivery)).body).toEqual({
          status: 'already-handled',
        });
        count += 1;
        const message = (await world.service.botMessages(user.id, count)).at(-1)!;
        expect(message.text).toBe(lines(order.number).join('\n'));
        expect(buttonsOf(message)).toEqual([
          { text: texts.open, web_app: { url: `${MINIAPP_URL}?startapp=order_${order.id}` } },
        ]);
      }
      expect(world.service.emulator.chatMessages(user.id)).toHaveLength(cases.length);
    },
  );

  it('names the side states in /history', async () => {
    const { user, id } = await linkedAccount('ru', 'ru');
    const held = await orderIn(id, 'on_hold', {}, 'bank');
    const reply = await world.service.say(user, '/history');
    expect(reply.text.split('\n')[1]).toBe(
      `№${held.number} · 1000 EUR → 0.0123 BTC · ${resources.ru.trust.statuses.on_hold}`,
    );
  });

  /** A `requisites_late_at` update as the engine delivers it (the deadlines job's flag). */

  it('sent no payment details, with both kinds in the database', async () => {
    const report = await scanForRequisites(world.db.pool, everythingSent(world.service.emulator));
    expect(report.messages).toBeGreaterThan(20);
    for (const column of [
      'transactions.deposit_address',
      'transactions.deposit_memo',
      'transactions.payment_reference',
      'bank_accounts.account_number',
      'bank_accounts.beneficiary',
      'bank_accounts.swift_bic',
      'bank_accounts.bank_address',
    ])
      expect(report.requisites[column] ?? 0, column).toBeGreaterThan(0);
  });
});
