import type { Page } from '@playwright/test';

import { expect, test } from './support.ts';
import { createMiniappOrder, launchUrl, newTelegramUser, telegramCalls } from './telegram.ts';

/*
 * Write access (issue 22, decision 039): someone who opened the mini-app from a link and never
 * pressed Start has launch data without allows_write_to_pm, so Telegram would refuse the bot's
 * messages about their order. After their first order the app asks Telegram for write access
 * (web_app_request_write_access; the development client asks as Telegram does and answers
 * write_access_requested); a "no" gets a short note on turning notifications on.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const writeAccessRequests = async (page: Page) =>
  (await telegramCalls(page)).filter((call) => call.method === 'web_app_request_write_access');

test('after the first order the app asks for write access; a no says how to turn it on', async ({
  page,
}) => {
  await page.goto(`${launchUrl({ user: newTelegramUser() })}&write=no`);
  await createMiniappOrder(page, '0.01');
  const popup = page.locator('[data-telegram="popup"]');
  await expect(popup).toContainText('Allow the bot to send you messages?');
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await expect(popup).toContainText('Chat notifications are off');
  await expect(popup).toContainText('open the bot and press Start');
  await popup.getByRole('button', { name: 'OK' }).click();
  await expect(popup).toHaveCount(0);
  expect(await writeAccessRequests(page)).toHaveLength(1);

  // Allowed: no note, and the next order (the launch data still old) does not ask again.
  const user = newTelegramUser();
  await page.goto(`${launchUrl({ user })}&write=no`);
  await createMiniappOrder(page, '0.01');
  await expect(popup).toContainText('Allow the bot to send you messages?');
  await popup.getByRole('button', { name: 'Allow' }).click();
  await expect(popup).toHaveCount(0);
  await page.goto(`${launchUrl({ user })}&write=no`);
  await createMiniappOrder(page, '0.01');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await writeAccessRequests(page)).toEqual([]);
  await expect(popup).toHaveCount(0);
});

test('a person the bot may already write to is not asked', async ({ page }) => {
  await page.goto(launchUrl({ user: newTelegramUser() }));
  await createMiniappOrder(page, '0.01');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  expect(await writeAccessRequests(page)).toEqual([]);
});
