import { botCatalogs } from '@app/shared/i18n/bot';
import { DEV_TELEGRAM_BOT_TOKEN } from '@app/shared/env';
import { MOBILE_TELEGRAM_THEMES } from '@app/shared/telegram/themes';

import { E2E_PORTS } from './stack.ts';
import { expect, test } from './support.ts';

/*
 * The Telegram sandbox as any Telegram client (issue 22, decision 039): the theme and client
 * chosen on the page (kept in its address) reach the mini-app's launch parameters, and the
 * bot's answers to button presses show as Telegram shows them: a toast that goes, an alert
 * with OK.
 */

const SANDBOX = `http://localhost:${E2E_PORTS.bot}/`;
const USER_CHAT = 100000001;
const STAFF_CHAT = -1000000000001;

/** The bot's own Bot API call (to the sandbox's emulator), as the bot would make it. */
async function botSends(chatId: number, text: string, button: { text: string; data: string }) {
  const response = await fetch(
    `http://localhost:${E2E_PORTS.bot}/telegram-api/bot${DEV_TELEGRAM_BOT_TOKEN}/sendMessage`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        chat_id: chatId,
        text,
        reply_markup: { inline_keyboard: [[{ text: button.text, callback_data: button.data }]] },
      }),
    },
  );
  expect(response.status).toBe(200);
}

test('the bot’s answers to presses show as a toast that goes, and as an alert with OK', async ({
  page,
}) => {
  await page.goto(SANDBOX);
  const userChat = page.getByRole('region', { name: 'You and the bot (Developer)' });
  const staffChat = page.getByRole('region', { name: 'Staff chat (as Operator, not staff)' });
  const marker = `old-${Date.now()}`;
  await botSends(USER_CHAT, `An old message ${marker}`, { text: `Old ${marker}`, data: 'gone:1' });
  await userChat.getByRole('button', { name: `Old ${marker}` }).click();
  const toast = page.getByRole('status').filter({ hasText: botCatalogs.en.staleButton });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCount(0, { timeout: 6_000 });

  // Only staff mark support requests handled; the sandbox's operator is not: an alert says so.
  await botSends(STAFF_CHAT, `Support request ${marker}`, {
    text: `Mark ${marker}`,
    data: `support:handled:${crypto.randomUUID()}`,
  });
  await staffChat.getByRole('button', { name: `Mark ${marker}` }).click();
  const alert = page.getByRole('alertdialog', { name: 'Alert' });
  await expect(alert).toContainText(botCatalogs.en.staff.notStaff);
  await page.waitForTimeout(3_500);
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: 'OK' }).click();
  await expect(alert).toHaveCount(0);
});

test('a dark iOS launch: the page is dark and the mini-app gets iOS and its night palette', async ({
  page,
}) => {
  await page.goto(`${SANDBOX}?theme=dark&platform=ios`);
  await expect(page.getByLabel('Theme')).toHaveValue('dark');
  await expect(page.getByLabel('Telegram client')).toHaveValue('ios');
  await expect(page.locator('body')).not.toHaveClass(/light/);
  const userChat = page.getByRole('region', { name: 'You and the bot (Developer)' });
  await userChat.getByLabel('Message the bot, e.g. /start').fill('/start');
  await userChat.getByRole('button', { name: 'Send' }).click();
  await userChat.getByRole('button', { name: 'Open the exchange' }).last().click();
  const frame = page.locator('#web-app');
  await expect(frame).toHaveAttribute('src', /tgWebAppPlatform=ios/);
  const launch = new URLSearchParams(new URL((await frame.getAttribute('src'))!).hash.slice(1));
  expect(launch.get('tgWebAppPlatform')).toBe('ios');
  expect(JSON.parse(launch.get('tgWebAppThemeParams')!)).toEqual(MOBILE_TELEGRAM_THEMES.ios.dark);
  // The app inside draws with that palette.
  await expect(page.frameLocator('#web-app').locator('body')).toHaveCSS(
    'background-color',
    'rgb(28, 28, 29)',
  );

  // Light Android, chosen on the page: kept in its address, so a link reproduces it.
  await page.getByLabel('Theme').selectOption('light');
  await page.getByLabel('Telegram client').selectOption('android');
  await expect(page).toHaveURL(/theme=light&platform=android/);
  await expect(page.locator('body')).toHaveClass(/light/);
  await page.reload();
  await expect(page.getByLabel('Telegram client')).toHaveValue('android');
  await page
    .getByRole('region', { name: 'You and the bot (Developer)' })
    .getByRole('button', { name: 'Open the exchange' })
    .last()
    .click();
  await expect(frame).toHaveAttribute('src', /tgWebAppPlatform=android/);
});

test('in the sandbox, someone who never pressed Start is asked for write access after an order', async ({
  page,
}) => {
  await page.goto(`${SANDBOX}?write=no`);
  const userChat = page.getByRole('region', { name: 'You and the bot (Developer)' });
  await userChat.getByLabel('Message the bot, e.g. /start').fill('/start');
  await userChat.getByRole('button', { name: 'Send' }).click();
  await userChat.getByRole('button', { name: 'Open the exchange' }).last().click();
  await expect(page.locator('#web-app')).toHaveAttribute('src', /tgWebAppData=/);
  const src = new URL((await page.locator('#web-app').getAttribute('src'))!);
  const initData = new URLSearchParams(new URLSearchParams(src.hash.slice(1)).get('tgWebAppData')!);
  expect(JSON.parse(initData.get('user')!)).not.toHaveProperty('allows_write_to_pm');
  const app = page.frameLocator('#web-app');
  const mainButton = page.locator('[data-telegram="main-button"]');
  await app.locator('#send-amount').fill('0.012');
  await expect(app.getByText(/1 BTC ≈/)).toBeVisible();
  await mainButton.click();
  await app.locator('#order-email').fill(`sandbox-write-${Date.now()}@example.com`);
  await app.locator('#order-fullName').fill('Sandbox Developer');
  await app.locator('#order-walletAddress').fill('TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC');
  await app.locator('#order-reason').fill('Trying write access');
  await app.locator('#order-agreeTerms').check({ force: true });
  await app.locator('#order-agreeAml').check({ force: true });
  await mainButton.click();
  await expect(app.getByText('Waiting for operator')).toBeVisible();

  // Telegram's dialog, drawn by the page; allowed, Telegram tells the bot in the chat.
  const ask = page.getByRole('alertdialog', { name: 'Write access' });
  await expect(ask).toContainText('Allow the bot to send you messages?');
  await ask.getByRole('button', { name: 'Allow' }).click();
  await expect(ask).toHaveCount(0);
  await expect(userChat.getByTestId('message').last()).toHaveText(
    'You allowed this bot to message you.',
  );
  // The bot takes the service message silently: no reply follows it.
  await page.waitForTimeout(1_500);
  await expect(userChat.getByText(botCatalogs.en.fallback)).toHaveCount(0);
});
