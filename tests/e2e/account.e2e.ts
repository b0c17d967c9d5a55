import type { Page } from '@playwright/test';

import type { Mailbox } from '../support/mailbox.ts';

import { GRAPHQL_URL } from './stack.ts';
import { staff } from './staff.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The signed-in user's pages: the transactions history (rows, Repeat, pages of 20, the empty
 * state) and the affiliate program (statistics, the referral link and its name, a referral
 * signing up through the link and earning the referrer a bonus, the withdraw form's minimum).
 * The tests run in order and share three accounts, so they use few sign-ups (the auth service
 * limits them per address): the orderer (quick-auth on the order form), the referrer (sign-up)
 * and the referral (sign-up through the referrer's link).
 */
test.describe.configure({ mode: 'serial' });

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const PASSWORD = 'Correct horse 1';

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const accounts: {
  orderer?: Tokens;
  ordererEmail?: string;
  referrer?: Tokens;
  referralName?: string;
} = {};

// Scripts as strings: this project's types have no DOM (they run in the page, not here).
const tokensOf = (page: Page): Promise<Tokens> =>
  page.evaluate<Tokens>(
    `({ accessToken: window.localStorage.getItem('accessToken') ?? '',
        refreshToken: window.localStorage.getItem('refreshToken') ?? '' })`,
  );

const storeTokens = (tokens: Tokens) =>
  `window.localStorage.setItem('accessToken', ${JSON.stringify(tokens.accessToken)});
   window.localStorage.setItem('refreshToken', ${JSON.stringify(tokens.refreshToken)});`;

/** Signs the page's next loads in as `tokens` (the portal keeps them in localStorage). */
async function signInAs(page: Page, tokens: Tokens | undefined): Promise<void> {
  if (!tokens?.accessToken) throw new Error('the account of an earlier test is missing');
  await page.addInitScript(storeTokens(tokens));
}

/** Sign-up through the form; the new account is signed in. */
async function signUp(page: Page, email: string): Promise<void> {
  await page.goto('/sign-up');
  await hydrated(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).not.toHaveURL(/\/sign-up/);
  await expect.poll(async () => (await tokensOf(page)).accessToken).not.toBe('');
}

/**
 * Confirms the signed-in account's address in Settings with the mailed code (decision 016:
 * until then it may have only a few orders and set no referral name). Confirming ends every
 * earlier session, so it returns the tokens the page holds now; the page must not load again
 * under an init script that stores the old ones.
 */
async function confirmInSettings(page: Page, mailbox: Mailbox, email: string): Promise<Tokens> {
  const seen = [...mailbox.to(email)];
  await page.goto('/settings');
  await hydrated(page);
  const heading = page.getByRole('heading', { name: 'Confirm your email' });
  await expect(heading).toBeVisible();
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const mail = await mailbox.waitFor(email, (m) => !seen.includes(m), 15_000);
  const code = /:\s(\d{6})\b/.exec(mail.text ?? '')?.[1] ?? '';
  await page.getByLabel('Code from the email').fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Your email is confirmed.')).toBeVisible();
  await expect(heading).toHaveCount(0);
  return tokensOf(page);
}

/** An order through the API, as the order form sends it. */
async function createOrder(tokens: Tokens, amount: string): Promise<{ id: string }> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${tokens.accessToken}`,
    },
    body: JSON.stringify({
      query: `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id } }`,
      variables: {
        input: {
          from: 'BTC',
          to: 'USDTTRC20',
          side: 'send',
          amount,
          email: `api-${crypto.randomUUID()}@example.com`,
          fullName: 'Api Orderer',
          walletAddress: TRC20_ADDRESS,
          reason: 'Savings',
          agreeTerms: true,
          agreeAml: true,
          idempotencyKey: crypto.randomUUID(),
        },
      },
    }),
  });
  const body = (await response.json()) as {
    data?: { createExchange: { id: string } };
    errors?: unknown;
  };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.createExchange;
}

/** The value of one statistic on the affiliate page. */
const statistic = (page: Page, label: string) =>
  page.locator('.stats__item').filter({ hasText: label }).locator('dd');

test('visitors are asked to sign in on both pages', async ({ page }) => {
  for (const [path, title] of [
    ['/transactions-history', 'Transactions history'],
    ['/affiliate-program', 'Affiliate program'],
  ] as const) {
    await page.goto(path);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByRole('main').getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      `/login?redirectTo=${encodeURIComponent(path)}`,
    );
  }
});

test('an order made on the order form is in the history, and Repeat presets a new one', async ({
  page,
}) => {
  await page.goto('/create-transaction/btc-to-usdttrc20?side=send&amount=0.05');
  await hydrated(page);
  await expect(page.getByLabel('You get')).toHaveValue(/^\d+(\.\d+)?$/);
  accounts.ordererEmail = `history-${Date.now()}@example.com`;
  await page.getByLabel('E-mail').fill(accounts.ordererEmail);
  await page.getByLabel('Full name').fill('Hanna History');
  await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
  await page.getByLabel('Reason for the exchange').fill('Savings');
  await page.getByLabel(/exchange terms and rules/).check();
  await page.getByLabel(/AML\/CTF and KYC policies/).check();
  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await expect(page).toHaveURL(/\/transaction\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  await expect(page.getByText('Waiting for operator')).toBeVisible();
  accounts.orderer = await tokensOf(page);

  await page.goto('/transactions-history');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transactions history (1)');
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  const number = row.getByRole('link', { name: /^\d+$/ });
  await expect(number).toHaveAttribute('href', `/transaction/${id}`);
  await expect(row).toContainText('0.05 BTC');
  await expect(row).toContainText('USDT (TRC20)');
  await expect(row.getByRole('cell').nth(4)).toContainText('Waiting for operator');
  await expect(page.getByRole('link', { name: 'Create an exchange' })).toHaveAttribute(
    'href',
    '/#exchange',
  );

  await row.getByRole('link', { name: /^Repeat order \d+$/ }).click();
  await expect(page).toHaveURL(/\/create-transaction\/btc-to-usdttrc20\?side=send&amount=0\.05$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Exchange BTC for USDT (TRC20)');
  await expect(page.getByLabel('You send')).toHaveValue('0.05');
  await expect(page.getByLabel('You get')).toHaveValue(/^\d+(\.\d+)?$/);
});

test('an account made on the order form confirms its email in Settings', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, accounts.orderer);
  accounts.orderer = await confirmInSettings(page, mailbox, accounts.ordererEmail!);
});

test('the history shows 20 orders a page, with previous and next', async ({ page }) => {
  await signInAs(page, accounts.orderer);
  for (let index = 0; index < 20; index++) await createOrder(accounts.orderer!, '0.01');

  await page.goto('/transactions-history');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transactions history (21)');
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(20);
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expect(pages).toContainText('Page 1 of 2 · 21 in total');

  await pages.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/transactions-history\?page=2$/);
  await expect(rows).toHaveCount(1);
  // The oldest order, the one made on the form, is last.
  await expect(rows.first()).toContainText('0.05 BTC');
  await expect(pages).toContainText('Page 2 of 2 · 21 in total');
  await pages.getByRole('link', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/\/transactions-history$/);
  await expect(rows).toHaveCount(20);
});

test('a new account has an empty history', async ({ page, mailbox }) => {
  const email = `referrer-${Date.now()}@example.com`;
  await signUp(page, email);
  // Confirmed, so that it may choose its referral name below.
  accounts.referrer = await confirmInSettings(page, mailbox, email);

  await page.goto('/transactions-history');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transactions history (0)');
  await expect(page.getByText('You have no transactions yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an exchange' })).toHaveAttribute(
    'href',
    '/#exchange',
  );
  await expect(page.getByRole('table')).toHaveCount(0);
});

test('the referral name is edited in a dialog, with the spec message for a bad one', async ({
  page,
}) => {
  await signInAs(page, accounts.referrer);
  await page.goto('/affiliate-program');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Affiliate program');
  await expect(statistic(page, 'Accumulated bonuses')).toHaveText('0 USDT');
  await expect(statistic(page, 'Total referrals')).toHaveText('0');
  await expect(statistic(page, 'Accrual rate')).toHaveText('0.5%');
  const link = page.getByRole('textbox', { name: 'Referral link' });
  await expect(link).toHaveValue(/^http:\/\/localhost:\d+\/\?ref=[A-Za-z0-9]{3,20}$/);

  const edit = page.getByRole('button', { name: 'Edit name' });
  await edit.click();
  const dialog = page.getByRole('dialog', { name: 'Edit referral name' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByLabel('Referral name');
  await expect(field).toBeFocused();

  await field.fill('ab');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    dialog.getByText('Referral name must be 3-20 alphanumeric characters.'),
  ).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  // Escape closes the dialog without saving, and focus returns to Edit name.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();

  const name = `ref${Date.now()}`;
  await edit.click();
  await dialog.getByLabel('Referral name').fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Referral name updated successfully.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(link).toHaveValue(new RegExp(`/\\?ref=${name}$`));
  accounts.referralName = name;

  // The live statistics bring the saved name back after a reload too.
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('textbox', { name: 'Referral link' })).toHaveValue(
    new RegExp(`/\\?ref=${name}$`),
  );
});

test('a visitor who follows the referral link and signs up counts as a referral', async ({
  page,
}) => {
  const name = accounts.referralName;
  if (!name) throw new Error('the referral name of an earlier test is missing');
  await page.goto(`/?ref=${name}`);
  await hydrated(page);
  await signUp(page, `referral-${Date.now()}@example.com`);
  const referral = await tokensOf(page);

  // The referral's order completes: the referrer earns a bonus on it.
  const order = await createOrder(referral, '0.05');
  await staff.supplyAddress(order.id, '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy');
  await staff.confirmPayment(order.id);
  await staff.complete(order.id, 'payout-tx-referral-1');

  // Now the referrer's page (another account in the same browser).
  await page.evaluate(storeTokens(accounts.referrer!));
  await page.goto('/affiliate-program');
  await hydrated(page);
  await expect(statistic(page, 'Total referrals')).toHaveText('1');
  await expect(statistic(page, 'Accumulated bonuses')).toHaveText(/^\d+(\.\d+)? USDT$/);
  await expect(statistic(page, 'Accumulated bonuses')).not.toHaveText('0 USDT');

  const tab = page.getByRole('tab', { name: 'Referral transactions' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel', { name: 'Referral transactions' });
  const rows = panel.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(/re\*\*\*@example\.com/);

  // The tabs follow the ARIA pattern: arrow keys move between them.
  await tab.focus();
  await page.keyboard.press('ArrowRight');
  const withdrawals = page.getByRole('tab', { name: 'Bonus withdrawals' });
  await expect(withdrawals).toBeFocused();
  await expect(withdrawals).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Bonus withdrawals' })).toContainText(
    'No withdrawals yet.',
  );
});

test('a withdrawal below 100 USDT is refused with the minimum', async ({ page }) => {
  await signInAs(page, accounts.referrer);
  await page.goto('/affiliate-program');
  await hydrated(page);
  const form = page.getByRole('region', { name: 'Withdraw bonuses' });
  await expect(form).toContainText('The minimum withdrawal is 100 USDT.');
  await form.getByLabel('Amount, USDT').fill('50');
  await form.getByLabel('Wallet address (TRC20 network)').fill(TRC20_ADDRESS);
  await form.getByRole('button', { name: 'Request withdrawal' }).click();
  const amount = form.getByLabel('Amount, USDT');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(amount).toHaveAccessibleDescription('The minimum withdrawal is 100 USDT.');
  await expect(amount).toBeFocused();

  await amount.fill('150');
  await form.getByRole('button', { name: 'Request withdrawal' }).click();
  await expect(amount).toHaveAccessibleDescription('The amount exceeds your available balance.');

  await amount.fill('100');
  await form.getByLabel('Wallet address (TRC20 network)').fill('not-a-wallet');
  await form.getByRole('button', { name: 'Request withdrawal' }).click();
  await expect(form.getByLabel('Wallet address (TRC20 network)')).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(form.getByText('Invalid TRC20 wallet address')).toBeVisible();
});

test('both pages speak Russian and Ukrainian', async ({ page }) => {
  await signInAs(page, accounts.referrer);
  await page.goto('/ru/affiliate-program');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Партнёрская программа');
  await expect(page.getByRole('tab', { name: 'Транзакции рефералов' })).toBeVisible();
  await page.goto('/ua/transactions-history');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Історія транзакцій (0)');
  await expect(page.getByRole('link', { name: 'Створити обмін' }).first()).toHaveAttribute(
    'href',
    '/ua#exchange',
  );
});

for (const width of [390, 1280]) {
  test(`affiliate program at ${width} px: screenshots, no serious accessibility violations`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, accounts.referrer);
    await page.goto('/affiliate-program');
    await hydrated(page);
    await expect(statistic(page, 'Total referrals')).toHaveText('1');
    await page.screenshot({ path: testInfo.outputPath(`affiliate-${width}.png`), fullPage: true });
    await expectNoSeriousViolations(page);

    await page.getByRole('button', { name: 'Edit name' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`affiliate-dialog-${width}.png`) });
    await expectNoSeriousViolations(page);
  });

  test(`history at ${width} px: screenshot, no serious accessibility violations`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, accounts.orderer);
    await page.goto('/transactions-history');
    await hydrated(page);
    await expect(page.getByRole('row').filter({ has: page.getByRole('cell') })).toHaveCount(20);
    await page.screenshot({ path: testInfo.outputPath(`history-${width}.png`), fullPage: true });
    await expectNoSeriousViolations(page);
  });
}
