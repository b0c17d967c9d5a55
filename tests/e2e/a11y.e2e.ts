import { uniqueEmail } from './accounts.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * Screenshots of the auth and contact screens on a phone and a desktop, and axe on them, on the
 * order form and on a transaction page: no serious or critical violations anywhere.
 */

const WIDTHS = [390, 1280] as const;
const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

const SCREENS = [
  { name: 'login', path: '/login', heading: 'Log in' },
  { name: 'sign-up', path: '/sign-up', heading: 'Create an account' },
  { name: 'contact', path: '/contact', heading: 'Contact us' },
] as const;

for (const width of WIDTHS) {
  for (const screen of SCREENS) {
    test(`${screen.name} at ${width} px: screenshot and no serious accessibility violations`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(screen.path);
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading);
      await page.screenshot({
        path: testInfo.outputPath(`${screen.name}-${width}.png`),
        fullPage: true,
      });
      await expectNoSeriousViolations(page);

      // The same with the form's messages showing.
      await page.locator('main form button[type="submit"]').click();
      await expect(page.getByText('The field is required').first()).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`${screen.name}-${width}-errors.png`),
        fullPage: true,
      });
      await expectNoSeriousViolations(page);
    });
  }
}

test('the order form and a transaction page have no serious accessibility violations', async ({
  page,
}, testInfo) => {
  await page.goto('/create-transaction/btc-to-usdttrc20?side=send&amount=0.05');
  await hydrated(page);
  await expect(page.getByLabel('You get')).toHaveValue(/^\d+(\.\d+)?$/);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousViolations(page);
  }

  // The spec's messages showing, then a real order (quick-auth of a new e-mail on the way).
  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await expect(page.getByText('The field is required').first()).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByLabel('E-mail').fill(uniqueEmail('a11y'));
  await page.getByLabel('Full name').fill('Ada Access');
  await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
  await page.getByLabel('Reason for the exchange').fill('Savings');
  await page.getByLabel(/exchange terms and rules/).check();
  await page.getByLabel(/AML\/CTF and KYC policies/).check();
  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await expect(page).toHaveURL(/\/transaction\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Waiting for operator')).toBeVisible();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: testInfo.outputPath(`transaction-${width}.png`),
      fullPage: true,
    });
    await expectNoSeriousViolations(page);
  }
});
