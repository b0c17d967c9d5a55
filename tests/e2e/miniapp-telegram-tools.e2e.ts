import type { Page } from '@playwright/test';

import { expect, test } from './support.ts';
import { launchUrl, mainButton, newTelegramUser, telegramCalls } from './telegram.ts';

/*
 * Telegram's own tools in the mini-app (issue 22): its QR scanner fills the payout address from a
 * wallet's receive code, the Settings item of Telegram's menu opens the app's settings, and the
 * referral link goes out through Telegram's share sheet. The development client plays Telegram
 * (miniapp/src/telegram/dev-client.ts): its scanner is a text field for what the code holds.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

async function openOrderForm(page: Page): Promise<void> {
  await page.goto(launchUrl({ user: newTelegramUser() }));
  await page.locator('#send-amount').fill('0.015');
  await expect(page.getByText(/1 BTC ≈/)).toBeVisible();
  await mainButton(page).click();
  await expect(page.locator('#order-walletAddress')).toBeVisible();
}

async function scan(page: Page, code: string): Promise<void> {
  await page.getByRole('button', { name: 'Scan the wallet’s QR code' }).click();
  const scanner = page.locator('[data-telegram="qr-scanner"]');
  await expect(scanner).toContainText('Point the camera at your wallet’s receive QR code');
  await scanner.getByRole('textbox').fill(code);
  await scanner.getByRole('button', { name: 'Scan' }).click();
}

test('Telegram’s QR scanner fills the payout address from a wallet’s payment URI', async ({
  page,
}) => {
  await openOrderForm(page);
  await scan(page, `tron:${TRC20_ADDRESS}?amount=25`);
  await expect(page.locator('#order-walletAddress')).toHaveValue(TRC20_ADDRESS);
  // The app closes the scanner once it has a code, as Telegram's SDK does.
  await expect(page.locator('[data-telegram="qr-scanner"]')).toHaveCount(0);
  const methods = (await telegramCalls(page)).map((call) => call.method);
  expect(methods).toContain('web_app_open_scan_qr_popup');
  expect(methods).toContain('web_app_close_scan_qr_popup');

  // A code with no address says so and leaves the field as it was.
  await scan(page, 'https://example.com/promo');
  await expect(
    page.getByText('This QR code holds no wallet address.', { exact: false }),
  ).toBeVisible();
  await expect(page.locator('#order-walletAddress')).toHaveValue(TRC20_ADDRESS);
});

test('Settings in Telegram’s menu opens the app’s settings, whose invite goes to Telegram’s share sheet', async ({
  page,
}) => {
  await page.goto(launchUrl({ user: newTelegramUser() }));
  const settingsButton = page.locator('[data-telegram="settings-button"]');
  await expect(settingsButton).toBeVisible();
  await settingsButton.click();
  await expect(page).toHaveURL(/\/telegram-app\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

  // The referral link leads to the bot, whose /start hands ref_<name> to the app's sign-in.
  await expect(page.getByText('Invite friends')).toBeVisible();
  const link = page.getByText(
    /^https:\/\/t\.me\/exchange_sandbox_bot\?start=ref_[A-Za-z0-9]{3,20}$/,
  );
  await expect(link).toBeVisible();
  const referralLink = (await link.textContent())!;
  await page.getByRole('button', { name: 'Share the link' }).click();
  await expect
    .poll(async () =>
      (await telegramCalls(page))
        .filter((call) => call.method === 'web_app_open_tg_link')
        .map((call) => new URL(`https://t.me${(call.params as { path_full: string }).path_full}`)),
    )
    .toContainEqual(expect.objectContaining({ pathname: '/share/url' }));
  const share = (await telegramCalls(page)).find((call) => call.method === 'web_app_open_tg_link');
  const shared = new URL(`https://t.me${(share!.params as { path_full: string }).path_full}`);
  expect(shared.searchParams.get('url')).toBe(referralLink);
  expect(shared.searchParams.get('text')).toBe('Exchange crypto and cash right in Telegram.');
});
