import { E2E_PORTS } from './stack.ts';
import { expect, test } from './support.ts';

/*
 * The Telegram sandbox (issue: bot): without a bot token, `npm start` runs the bot against its
 * own Bot API emulator and serves a page where a developer chats with the bot as a Telegram
 * user. From /start to the mini-app in a frame (launch data signed by the sandbox's token, the
 * real quick-auth), an order made inside it, and the staff chat hearing of it through the
 * engine's event trigger.
 */

const SANDBOX = `http://localhost:${E2E_PORTS.bot}/`;
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

test('from /start to an order in the mini-app, and the staff chat hears of it', async ({
  page,
}) => {
  await page.goto(SANDBOX);
  const userChat = page.getByRole('region', { name: 'You and the bot (Developer)' });
  const staffChat = page.getByRole('region', { name: 'Staff chat (as Operator, not staff)' });
  const staffBefore = await staffChat.getByTestId('message').count();

  await userChat.getByLabel('Message the bot, e.g. /start').fill('/start');
  await userChat.getByRole('button', { name: 'Send' }).click();
  await expect(userChat.getByText(/Hello, Developer!/)).toBeVisible();
  // The chat's menu button opens the mini-app too.
  await expect(page.getByRole('button', { name: 'Exchange', exact: true })).toBeVisible();
  await userChat.getByRole('button', { name: 'Open the exchange' }).last().click();

  const app = page.frameLocator('#web-app');
  const mainButton = page.locator('[data-telegram="main-button"]');
  await app.locator('#send-amount').fill('0.012');
  await expect(app.getByText(/1 BTC ≈/)).toBeVisible();
  await expect(mainButton).toHaveText('Continue');
  await mainButton.click();
  await app.locator('#order-email').fill(`sandbox-${Date.now()}@example.com`);
  await app.locator('#order-fullName').fill('Sandbox Developer');
  await app.locator('#order-walletAddress').fill(TRC20_ADDRESS);
  await app.locator('#order-reason').fill('Trying the sandbox');
  await app.locator('#order-agreeTerms').check({ force: true });
  await app.locator('#order-agreeAml').check({ force: true });
  await mainButton.click();
  await expect(app.getByText('Waiting for operator')).toBeVisible();
  const number = (await app.getByRole('heading', { level: 1 }).textContent())?.match(/\d+/)?.[0];
  expect(number).toBeTruthy();

  // The engine's order_created_bot trigger reaches the bot, which writes to the staff chat.
  await expect(staffChat.getByTestId('message')).toHaveCount(staffBefore + 1, { timeout: 30_000 });
  const notice = staffChat.getByTestId('message').last();
  await expect(notice).toContainText(`New order №${number}: 0.012 BTC →`);
  await expect(notice.getByRole('link', { name: 'Open in the console' })).toHaveAttribute(
    'href',
    new RegExp(`/admin/transactions\\?order=[0-9a-f-]{36}$`),
  );
});
