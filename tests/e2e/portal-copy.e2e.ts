import { registerAccount, uniqueEmail } from './accounts.ts';
import { AUTH_URL } from './stack.ts';
import { expect, expectedFailures, hydrated, test } from './support.ts';
import { TRC20_ADDRESS } from './telegram.ts';

/*
 * Issue 23's copy defects, as a person meets them: sentences end with a period, and the code
 * step inside the order form leads back to the form (it offered "Back to login").
 */

test('the order form’s code step leads back to the form, with what was typed', async ({ page }) => {
  // A known address: quick-auth asks for the code mailed to it.
  const email = uniqueEmail('known-orderer');
  await registerAccount(email);
  await page.goto('/create-transaction/btc-to-usdttrc20?side=send&amount=0.05');
  await hydrated(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill('Kai Known');
  await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
  await page.getByLabel('Reason for the exchange').fill('Savings');
  await page.getByLabel(/exchange terms and rules/).check();
  await page.getByLabel(/AML\/CTF and KYC policies/).check();
  await page.getByRole('button', { name: 'Create the exchange' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Enter the code');
  await expect(page.getByRole('button', { name: 'Back to login' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Back to the order form' }).click();
  await expect(page.getByLabel('Full name')).toHaveValue('Kai Known');
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
});

test('messages that are sentences end with a period', async ({ page, consoleErrors }) => {
  await page.goto('/sign-up');
  await hydrated(page);
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('short'));
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').fill('short');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(
    page.getByText('The password must be at least 10 characters long.', { exact: true }),
  ).toBeVisible();

  // The auth service out of reach: the network message.
  await page.route(`${AUTH_URL}/login`, (route) => route.abort('connectionrefused'));
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('offline'));
  await page.getByLabel('Password', { exact: true }).fill('Correct horse 1');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(
    page.getByText('The server cannot be reached. Check your connection and try again.', {
      exact: true,
    }),
  ).toBeVisible();
  expectedFailures(consoleErrors, /ERR_CONNECTION_REFUSED/);
});
