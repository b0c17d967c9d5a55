import type { Page } from '@playwright/test';

import { staff } from './staff.ts';
import { expect, expectedFailures, hydrated, test } from './support.ts';

/*
 * A visitor's exchange end to end: the home widget, the order form with the spec's messages,
 * quick-auth of a new e-mail on the way, then the transaction page following the order live
 * while staff supply requisites, confirm the payment and complete it.
 */

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const DEPOSIT_ADDRESS = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

async function fillOrderForm(page: Page, email: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill('Vera Visitor');
  await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
  await page.getByLabel('Reason for the exchange').fill('Savings');
  await page.getByLabel(/exchange terms and rules/).check();
  await page.getByLabel(/AML\/CTF and KYC policies/).check();
}

const orderIdOf = (page: Page) => page.url().split('/').pop()!;

test('from the home widget to a completed order, the transaction page following live', async ({
  page,
}) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByLabel('You Send').fill('0.05');
  await expect(page.getByRole('button', { name: 'Exchange', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Exchange', exact: true }).click();

  await expect(page).toHaveURL(/\/create-transaction\/btc-to-usdttrc20\?side=send&amount=0\.05$/);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Exchange BTC for USDT (TRC20)');
  await expect(page.getByRole('navigation', { name: 'Progress' })).toContainText(
    'The order creation',
  );
  await expect(page.getByLabel('You get')).toHaveValue(/^\d+(\.\d+)?$/);

  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await expect(page.getByText('The field is required')).toHaveCount(4);
  await expect(page.getByText('You must agree to continue')).toHaveCount(2);

  await fillOrderForm(page, `visitor-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Create the exchange' }).click();

  await expect(page).toHaveURL(/\/transaction\/[0-9a-f-]{36}$/);
  const id = orderIdOf(page);
  await expect(page.getByText('Waiting for operator')).toBeVisible();
  await expect(page.getByText(/takes 2 to 10 minutes/)).toBeVisible();
  await expect(page.getByText('0.05 BTC')).toBeVisible();

  // Staff act through the API; the page follows without a reload.
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(page.getByText('Waiting for payment')).toBeVisible();
  await expect(page.getByText(DEPOSIT_ADDRESS)).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Payment QR code: the deposit address, the amount/ }),
  ).toBeVisible();
  await expect(page.locator('.qr svg')).toBeVisible();

  await staff.confirmPayment(id);
  await expect(page.getByText(/Payment received/)).toBeVisible();
  await staff.complete(id, 'payout-tx-e2e-1');
  await expect(page.getByText('This transfer was successfully completed.')).toBeVisible();
  await expect(page.getByText('payout-tx-e2e-1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel the exchange' })).toHaveCount(0);
});

test('the owner cancels an order while it waits for the operator, asked in the page', async ({
  page,
}) => {
  // Issue 23: the cancel asks in the portal's own dialog, never the browser's window.confirm().
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto('/create-transaction/btc-to-usdttrc20?side=send&amount=0.05');
  await hydrated(page);
  await expect(page.getByLabel('You get')).toHaveValue(/^\d+(\.\d+)?$/);
  await fillOrderForm(page, `canceler-${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await expect(page.getByText('Waiting for operator')).toBeVisible();

  const opener = page.getByRole('button', { name: 'Cancel the exchange' });
  const dialog = page.getByRole('dialog', { name: /^Cancel order \d+\?$/ });
  // "Keep the order" closes it, nothing changes, and focus is back on the button.
  await opener.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This cannot be undone.');
  await dialog.getByRole('button', { name: 'Keep the order' }).click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(page.getByText('Waiting for operator')).toBeVisible();
  // Escape closes it too.
  await opener.click();
  await expect(dialog).toBeVisible();
  // A destructive step: focus starts on the safe way out, so a stray Enter cancels nothing.
  await expect(dialog.getByRole('button', { name: 'Keep the order' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Waiting for operator')).toBeVisible();
  // Confirming cancels.
  await opener.click();
  await dialog.getByRole('button', { name: 'Cancel the exchange' }).click();
  await expect(page.getByText(/The order was canceled/)).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(browserDialogs).toEqual([]);
  await expect(page.getByRole('link', { name: 'Return to the main page' })).toBeVisible();
});

test('an unknown pair is a 404', async ({ page, consoleErrors }) => {
  const response = await page.goto('/create-transaction/btc-to-nothing');
  expect(response?.status()).toBe(404);
  expectedFailures(consoleErrors, /status of 404/);
});
