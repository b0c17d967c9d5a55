import type { Page, Route } from '@playwright/test';

import {
  adminGraphql,
  PASSWORD,
  registerAccount,
  signInWithTokens,
  uniqueEmail,
} from './accounts.ts';
import { WEB_URL } from './stack.ts';
import { expect, hydrated, test } from './support.ts';
import { TRC20_ADDRESS } from './telegram.ts';

/*
 * Issue 23: nothing a person types is lost to a page that has not hydrated yet (a quick person,
 * a slow phone). Each test holds the page's scripts back (every JavaScript response waits until
 * `release`), on a CPU slowed 4 times, so the person types and submits into the server-rendered
 * HTML; then the scripts arrive. The values must be there after hydration, the submit must go
 * through once, and no form may post to the web server (which has no actions to answer it).
 */

interface HeldPage {
  /** Lets the held scripts through, then waits for hydration. */
  release(): Promise<void>;
  /** Requests that posted to the web server itself. */
  posts: string[];
}

async function openBeforeHydration(page: Page, path: string): Promise<HeldPage> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const held: Route[] = [];
  let released = false;
  await page.route(
    (url) => url.origin === WEB_URL && url.pathname.endsWith('.js'),
    (route) => {
      if (released) return route.continue();
      held.push(route);
      return undefined;
    },
  );
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().startsWith(WEB_URL)) posts.push(request.url());
  });
  // 'commit': the module scripts hold back DOMContentLoaded and load.
  await page.goto(path, { waitUntil: 'commit' });
  await page.locator('form').first().waitFor();
  expect(await page.locator('html[data-hydrated="true"]').count()).toBe(0);
  return {
    posts,
    async release() {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
      await hydrated(page);
    },
  };
}

test('login: typed and submitted before hydration, the person is signed in', async ({ page }) => {
  const email = uniqueEmail('early-login');
  await registerAccount(email);
  const held = await openBeforeHydration(page, '/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await held.release();
  await expect(page.getByRole('banner').locator('summary', { hasText: email })).toBeVisible();
  expect(held.posts).toEqual([]);
});

test('sign-up: the button works before hydration and the account is made', async ({ page }) => {
  const email = uniqueEmail('early-sign-up');
  const held = await openBeforeHydration(page, '/sign-up');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await held.release();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').locator('summary', { hasText: email })).toBeVisible();
  expect(held.posts).toEqual([]);
});

test('contact: a request written before hydration is sent', async ({ page }) => {
  // Every anonymous request counts against the address (one a minute): forget earlier ones.
  await adminGraphql(
    `mutation {
       update_support_requests(where: { client_key: { _like: "ip:%" } }, _set: { client_key: null }) {
         affected_rows
       }
     }`,
    {},
  );
  const held = await openBeforeHydration(page, '/contact');
  await page.getByLabel('Name').fill('Quick Quinn');
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('early-contact'));
  await page.getByLabel('Message').fill('Typed before the page was ready.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await held.release();
  await expect(page.locator('.contact__form [role="status"]')).toContainText(
    'Your request has been sent',
  );
  expect(held.posts).toEqual([]);
});

test('the home widget keeps an amount typed before hydration and quotes it', async ({ page }) => {
  const held = await openBeforeHydration(page, '/');
  await page.getByLabel('You Send').fill('0.05');
  await held.release();
  await expect(page.getByLabel('You Send')).toHaveValue('0.05');
  await expect(page.getByLabel('You Get')).toHaveValue(/^\d+(\.\d+)?$/);
  await expect(page.getByRole('button', { name: 'Exchange', exact: true })).toBeEnabled();
});

test('the order form: filled and submitted before hydration, the order is made', async ({
  page,
}) => {
  const held = await openBeforeHydration(
    page,
    '/create-transaction/btc-to-usdttrc20?side=send&amount=0.05',
  );
  await page.getByLabel('E-mail').fill(uniqueEmail('early-order'));
  await page.getByLabel('Full name').fill('Quick Quinn');
  await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
  await page.getByLabel('Reason for the exchange').fill('Savings');
  await page.getByLabel(/exchange terms and rules/).check();
  await page.getByLabel(/AML\/CTF and KYC policies/).check();
  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await held.release();
  await expect(page).toHaveURL(/\/transaction\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  expect(held.posts).toEqual([]);
});

test("the order form starts with a signed-in person's e-mail", async ({ page }) => {
  const email = uniqueEmail('prefilled');
  await signInWithTokens(page, await registerAccount(email));
  await page.goto('/create-transaction/btc-to-usdttrc20?side=send&amount=0.05');
  await hydrated(page);
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
});
