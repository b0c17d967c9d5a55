import { expect, type Page } from '@playwright/test';

import { adminGraphql } from './accounts.ts';
import { WEB_URL } from './stack.ts';

/*
 * The mini-app as Telegram opens it, for the end-to-end tests. In a plain browser the app asks
 * the web server for launch data signed with the development bot token and plays the Telegram
 * client itself (miniapp/src/telegram/dev-client.ts): it draws Telegram's main and back buttons
 * (`[data-telegram=…]`) and records every method the app calls on Telegram in
 * `window.__telegramCalls`. The query picks the Telegram user, language, theme and deep link.
 */

let nextUser = 700_000_000 + Math.floor(Math.random() * 100_000_000);

/** A Telegram user id no other test uses. */
export const newTelegramUser = (): number => (nextUser += 1);

export interface LaunchOptions {
  user: number;
  lang?: string;
  theme?: 'light' | 'dark';
  startapp?: string;
  /** The Telegram client the launch plays (`tgWebAppPlatform`); Telegram Desktop by default. */
  platform?: 'ios' | 'android' | 'macos' | 'web' | 'tdesktop';
  /** A path inside the app (`/transactions-history`); the exchange by default. */
  path?: string;
}

export function launchUrl(options: LaunchOptions): string {
  const query = new URLSearchParams({ user: String(options.user) });
  if (options.lang) query.set('lang', options.lang);
  if (options.theme) query.set('theme', options.theme);
  if (options.startapp) query.set('startapp', options.startapp);
  if (options.platform) query.set('platform', options.platform);
  return `/telegram-app${options.path ?? ''}?${query.toString()}`;
}

export const mainButton = (page: Page) => page.locator('[data-telegram="main-button"]');
export const backButton = (page: Page) => page.locator('[data-telegram="back-button"]');

let ordersFilled = 0;

/** A USDT (TRC20) payout address the form's rule takes. */
export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

/**
 * From the exchange screen to a created BTC → USDT (TRC20) order, filled as a person would;
 * returns the order's id.
 */
export async function createMiniappOrder(page: Page, amount: string): Promise<string> {
  await openMiniappOrderForm(page, amount);
  return submitMiniappOrderForm(page);
}

/** From the exchange screen, `amount` BTC quoted, to the order form. */
export async function openMiniappOrderForm(page: Page, amount: string): Promise<void> {
  await page.locator('#send-amount').fill(amount);
  await expect(page.getByText(/1 BTC ≈/)).toBeVisible();
  await expect(mainButton(page)).toBeEnabled();
  await mainButton(page).click();
  await expect(page.locator('#order-email')).toBeVisible();
}

/** Fills the open order form as a person would and creates the order; returns its id. */
export async function submitMiniappOrderForm(page: Page): Promise<string> {
  ordersFilled += 1;
  await page.locator('#order-email').fill(`tg-${Date.now()}-${ordersFilled}@example.com`);
  await page.locator('#order-fullName').fill('Taras Telegram');
  await page.locator('#order-walletAddress').fill(TRC20_ADDRESS);
  await page.locator('#order-reason').fill('Savings');
  // telegram-ui draws its own box over the (visually hidden) checkbox; people tap the row.
  await page.locator('#order-agreeTerms').check({ force: true });
  await page.locator('#order-agreeAml').check({ force: true });
  await mainButton(page).click();
  await expect(page).toHaveURL(/\/telegram-app\/transaction\/[0-9a-f-]{36}/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** The methods the app called on Telegram, with their parameters, in order. */
export const telegramCalls = (page: Page) =>
  page.evaluate<Array<{ method: string; params: unknown }>>('window.__telegramCalls ?? []');

/** The haptic notifications the app asked for (`success`, `error`, `warning`). */
export async function hapticNotifications(page: Page): Promise<string[]> {
  return (await telegramCalls(page))
    .filter((call) => call.method === 'web_app_trigger_haptic_feedback')
    .map((call) => call.params as { type: string; notification_type?: string })
    .filter((params) => params.type === 'notification')
    .map((params) => params.notification_type ?? '');
}

/** Launch data as Telegram puts it in the URL hash, signed by the server's development token. */
export async function signedLaunchParams(user: number): Promise<URLSearchParams> {
  const response = await fetch(`${WEB_URL}/telegram-app/dev-launch?user=${user}`);
  if (!response.ok) throw new Error(`dev-launch: ${response.status}`);
  return new URLSearchParams(await response.text());
}

/**
 * Opens the app the way a real Telegram client does: the launch data in the URL hash and
 * Telegram's bridge (`TelegramWebviewProxy`) in the page, so no development launch happens.
 */
export async function openAsTelegramClient(
  page: Page,
  hash: URLSearchParams,
  /** The app's own query, as a bot's web_app button gives it (`?startapp=…`). */
  search = '',
): Promise<void> {
  // Telegram's native bridge: postEvent(method, JSON parameters), recorded like the dev client's.
  await page.addInitScript(
    'window.TelegramWebviewProxy = { postEvent: function (method, params) {' +
      ' (window.__telegramCalls = window.__telegramCalls || []).push(' +
      '{ method: method, params: params ? JSON.parse(params) : undefined }); } };',
  );
  await page.goto(`/telegram-app${search}#${hash.toString()}`);
}

export interface TelegramAccount {
  id: string;
  telegram_id: number;
  referrer_id: string | null;
  locale: string;
}

/** The accounts Telegram user `user` has (the product keeps at most one). */
export async function accountsOfTelegramUser(user: number): Promise<TelegramAccount[]> {
  const { portal_users: rows } = await adminGraphql<{ portal_users: TelegramAccount[] }>(
    `query ($user: bigint!) {
       portal_users(where: { telegram_id: { _eq: $user } }) { id telegram_id referrer_id locale }
     }`,
    { user },
  );
  return rows;
}
