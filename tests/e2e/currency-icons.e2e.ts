import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Locator, Page } from '@playwright/test';

import { GRAPHQL_URL } from './stack.ts';
import { expect, expectedFailures, hydrated, test } from './support.ts';
import { launchUrl, newTelegramUser } from './telegram.ts';

/*
 * Currency icons (issues 22, 23; decision 038) as a person sees them, from the production builds:
 * the set's logos load as static files, tokens carry their network's badge, cash currencies and
 * tickers the set does not cover show the neutral fallback, and no image is ever broken.
 */

/** Screenshots to look at, beside the other test results (not emptied by the next run). */
const SHOTS = fileURLToPath(new URL('../../test-results/currency-icons/', import.meta.url));
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

/** An <img> that finished loading and has pixels (a broken one has naturalWidth 0). */
async function expectLoaded(image: Locator): Promise<void> {
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      image.evaluate((element) => {
        const img = element as unknown as { complete: boolean; naturalWidth: number };
        return img.complete ? img.naturalWidth : 0;
      }),
    )
    .toBeGreaterThan(0);
}

/** The icon beside a currency: its logo (or fallback) image, and the badge if any. */
function iconOf(row: Locator) {
  const icon = row.locator('.currency-icon').first();
  return { icon, main: icon.locator('img').first(), badge: icon.locator('.currency-icon__badge') };
}

/** Every image inside `scope` has loaded: none broken. */
async function expectNoBrokenImages(scope: Locator): Promise<void> {
  const images = scope.locator('img');
  const count = await images.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index++) await expectLoaded(images.nth(index));
}

test('the widget picker shows logos, network badges and the cash sign, all loaded', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('/');
  await hydrated(page);
  const from = page.getByRole('button', { name: /^From:/ });
  await expectLoaded(iconOf(from).main);

  await from.click();
  const search = page.getByRole('combobox', { name: 'Search currency' });
  await search.fill('Bitcoin');
  const bitcoin = iconOf(page.getByRole('option').filter({ hasText: /^BTC/ }));
  await expect(bitcoin.icon).toHaveAttribute('data-icon', 'logo');
  await expect(bitcoin.main).toHaveAttribute(
    'src',
    /\/assets\/currency-icons-\w+\/tokens\/BTC\.svg$/,
  );
  await expectLoaded(bitcoin.main);
  await expect(bitcoin.badge).toHaveCount(0);

  // One logo for USDT on every network; the badge tells TRON from Ethereum.
  await search.fill('USDT');
  const tron = iconOf(page.getByRole('option').filter({ hasText: 'USDT · TRC20' }));
  const ethereum = iconOf(page.getByRole('option').filter({ hasText: 'USDT · ERC20' }));
  await expectLoaded(tron.main);
  await expect(tron.badge).toHaveAttribute('src', /\/networks\/tron\.svg$/);
  await expectLoaded(tron.badge);
  await expect(ethereum.badge).toHaveAttribute('src', /\/networks\/ethereum\.svg$/);
  await expectLoaded(ethereum.badge);
  await page.screenshot({ path: path.join(SHOTS, 'widget-picker-usdt.png') });

  // Cash has no logo and no flag: a neutral sign, an image that cannot fail.
  await search.fill('Cash US dollar');
  const cash = iconOf(page.getByRole('option').filter({ hasText: 'Cash US dollar' }));
  await expect(cash.icon).toHaveAttribute('data-icon', 'fallback');
  await expect(cash.main).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await expectLoaded(cash.main);

  await search.fill('');
  await expectNoBrokenImages(page.locator('.picker__list'));
  await page.screenshot({ path: path.join(SHOTS, 'widget-picker.png') });
});

test('a logo that does not load gives way to the fallback, never a broken image', async ({
  page,
  consoleErrors,
}) => {
  await page.route(/\/tokens\/BTC\.svg$/, (route) => route.fulfill({ status: 404 }));
  await page.goto('/');
  await hydrated(page);
  const from = page.getByRole('button', { name: /^From:/ });
  await from.click();
  await page.getByRole('combobox', { name: 'Search currency' }).fill('Bitcoin');
  const bitcoin = iconOf(page.getByRole('option').filter({ hasText: /^BTC/ }));
  await expect(bitcoin.icon).toHaveAttribute('data-icon', 'fallback');
  await expectLoaded(bitcoin.main);
  await expectNoBrokenImages(page.locator('.picker'));
  expectedFailures(consoleErrors, /404/);
});

/** Adds a currency the icon set has never heard of to the catalog the server hands the app. */
async function withUnknownCurrency(page: Page): Promise<void> {
  await page.addInitScript(() => {
    interface Catalog {
      currencies: Array<Record<string, unknown>>;
      directions: Record<string, string[]>;
    }
    let settings: { catalog?: Catalog } | undefined;
    Object.defineProperty(globalThis, '__MINIAPP__', {
      configurable: true,
      get: () => settings,
      set: (value: { catalog?: Catalog }) => {
        value.catalog?.currencies.push({
          code: 'ZZZE2E',
          symbol: 'ZZZ',
          name: 'Zeta Unlisted',
          kind: 'crypto',
          network: 'ZZZ',
          precision: 8,
          minAmount: '1',
          maxAmount: '1000',
          memoRequired: false,
        });
        value.catalog?.directions['BTC']?.push('ZZZE2E');
        settings = value;
      },
    });
  });
}

test.describe('the mini-app', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('its currency list shows logos, badges and the fallback for an unknown ticker', async ({
    page,
  }) => {
    await withUnknownCurrency(page);
    await page.goto(launchUrl({ user: newTelegramUser() }));
    const to = page.getByRole('button', { name: /USDT \(TRC20\)/ });
    await expectLoaded(iconOf(to).main);
    await page.screenshot({ path: path.join(SHOTS, 'miniapp-exchange.png') });
    await to.click();
    const list = page.locator('ul.currency-list');
    await expect(list).toBeVisible();
    const row = (text: string | RegExp) =>
      iconOf(list.getByRole('listitem').filter({ hasText: text }));

    const tron = row('Tether USD (TRC20)');
    await expect(tron.icon).toHaveAttribute('data-icon', 'logo');
    await expectLoaded(tron.main);
    await expectLoaded(tron.badge);
    await page.screenshot({ path: path.join(SHOTS, 'miniapp-currency-list.png') });

    const search = page.getByRole('searchbox', { name: 'Search currency' });
    await search.fill('Zeta');
    const unknown = row('Zeta Unlisted');
    await expect(unknown.icon).toHaveAttribute('data-icon', 'fallback');
    await expect(unknown.main).toHaveAttribute('src', /^data:image\/svg\+xml/);
    await expectLoaded(unknown.main);
    await page.screenshot({ path: path.join(SHOTS, 'miniapp-currency-list-unknown.png') });

    await search.fill('');
    await expectNoBrokenImages(list.getByRole('listitem').first());
  });

  test('its history shows each order’s currencies: logos loaded, an unknown one as letters', async ({
    page,
  }) => {
    const user = newTelegramUser();
    await page.goto(launchUrl({ user }));
    const readToken = () =>
      page.evaluate<string | null>("window.sessionStorage.getItem('accessToken')");
    await expect.poll(readToken).not.toBeNull();
    await createOrder((await readToken())!);

    // The live rows as the engine sends them, but with the received ticker one the set lacks.
    await page.routeWebSocket(/\/v1\/graphql/, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((message) =>
        socket.send(
          typeof message === 'string'
            ? message.replace(/"symbol":\s*"USDT"/g, '"symbol":"ZZZ"')
            : message,
        ),
      );
    });
    await page.goto(launchUrl({ user, path: '/transactions-history' }));
    const row = page.locator('.history__row').filter({ hasText: '0.012 BTC' });
    await expect(row).toBeVisible();
    const [send, receive] = [
      row.locator('.currency-icon').nth(0),
      row.locator('.currency-icon').nth(1),
    ];
    await expect(send).toHaveAttribute('data-icon', 'logo');
    await expect(send.locator('img')).toHaveAttribute(
      'src',
      /\/telegram-app\/assets\/currency-icons-\w+\/tokens\/BTC\.svg$/,
    );
    await expect(row.getByText(/ZZZ \(TRC20\)/)).toBeVisible();
    await expect(receive).toHaveAttribute('data-icon', 'fallback');
    // The unknown token still carries its network's badge.
    await expect(receive.locator('.currency-icon__badge')).toHaveAttribute(
      'src',
      /\/networks\/tron\.svg$/,
    );
    await expectNoBrokenImages(row);
    await page.screenshot({ path: path.join(SHOTS, 'miniapp-history.png') });
  });
});

/** An order of the signed-in Telegram account, through the API as the app sends it. */
async function createOrder(accessToken: string): Promise<void> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      query: `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id } }`,
      variables: {
        input: {
          from: 'BTC',
          to: 'USDTTRC20',
          side: 'send',
          amount: '0.012',
          email: `icons-${crypto.randomUUID()}@example.com`,
          fullName: 'Icon Tester',
          walletAddress: TRC20_ADDRESS,
          reason: 'Savings',
          agreeTerms: true,
          agreeAml: true,
          idempotencyKey: crypto.randomUUID(),
        },
      },
    }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
}
