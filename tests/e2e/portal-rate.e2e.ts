import { adminGraphql, registerAccount, signInWithTokens, uniqueEmail } from './accounts.ts';
import { GRAPHQL_URL } from './stack.ts';
import { expect, expectedFailures, hydrated, test } from './support.ts';
import { launchUrl, newTelegramUser } from './telegram.ts';

/*
 * Issue 23 (decision 046): the rate before typing and one limits line, the tighter of both
 * currencies, in the widget and the order form; typing above it is refused with the same
 * figure; the pair pages show the live rate; a signed-in person on a better level sees their
 * own price and "you get X% more", and their progress to the next level.
 */

interface PairRate {
  rate: string;
  publicRate: string;
  betterByPercent: string | null;
  sendLimits: { min: string; max: string };
}

/** The pair's rate as a visitor gets it, straight from the engine. */
async function visitorRate(from: string, to: string): Promise<PairRate> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `query ($from: String!, $to: String!) {
        pairRate(from: $from, to: $to) {
          rate publicRate betterByPercent sendLimits { min max }
        }
      }`,
      variables: { from, to },
    }),
  });
  const body = (await response.json()) as { data: { pairRate: PairRate } };
  return body.data.pairRate;
}

/** What the portal shows for a decimal: trailing zeros dropped. */
const trim = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

test('the widget shows the rate and one limits line before typing; 2 BTC is refused at that line’s max', async ({
  page,
  consoleErrors,
}) => {
  const rate = await visitorRate('BTC', 'USDTTRC20');
  const max = trim(rate.sendLimits.max);
  // The receiving side's 100,000 USDT is the tighter limit: about 1.07 BTC, not BTC's own 10.
  expect(Number(max)).toBeLessThan(2);

  await page.goto('/');
  await hydrated(page);
  const widget = page.locator('form#exchange');
  await expect(widget.getByRole('status')).toContainText(/^1 BTC ≈ [\d.,]+ USDT$/);
  const limits = widget.locator('[data-limits]');
  await expect(limits).toHaveCount(1);
  await expect(limits).toHaveText(`Min: 0.0005 BTC · Max: ${max} BTC`);
  await expect(widget.getByText('Max: 10 BTC')).toHaveCount(0);

  await page.getByLabel('You Send').fill('2');
  await expect(widget.getByRole('status')).toHaveText(`The most you can exchange is ${max} BTC.`);
  // The limits line speaks of the side being typed: USDT when typing what you get.
  await page.getByLabel('You Get').fill('100');
  await expect(limits).toContainText('USDT');
  await expect(limits).toHaveCount(1);
  expectedFailures(consoleErrors, /status of 400/);
});

test('the order form has one limits line, the tighter one, before any amount', async ({ page }) => {
  const rate = await visitorRate('BTC', 'USDTTRC20');
  await page.goto('/create-transaction/btc-to-usdttrc20');
  await hydrated(page);
  const amounts = page.locator('.order-form__amounts');
  await expect(amounts.locator('[data-limits]')).toHaveCount(1);
  await expect(amounts.locator('[data-limits]')).toContainText(
    `Max: ${trim(rate.sendLimits.max)} BTC`,
  );
  await expect(amounts.getByRole('status')).toContainText(/1 BTC ≈ [\d.,]+ USDT/);
});

test('a pair page shows the live rate of its pair', async ({ page }) => {
  await page.goto('/products/stealth-virtual-card');
  await hydrated(page);
  const section = page.getByRole('region', { name: 'Rate now' });
  await expect(section.getByRole('status')).toHaveText(/^1 BTC ≈ [\d.,]+ USDT \(TRC20\)$/);
});

test('a user on a better level sees their own price, "you get 2.0% more", and their level progress', async ({
  page,
}) => {
  const email = uniqueEmail('silver-rate');
  const tokens = await registerAccount(email);
  await adminGraphql(
    `mutation ($email: String!) {
       update_portal_users(where: { email: { _eq: $email } }, _set: { status: "silver" }) {
         affected_rows
       }
     }`,
    { email },
  );
  await signInWithTokens(page, tokens);

  await page.goto('/');
  await hydrated(page);
  const status = page.locator('form#exchange').getByRole('status');
  // (0.985 / 1.02) / (0.975 / 1.03) − 1 = 2.016…%, rounded down.
  await expect(status).toContainText(
    /^1 BTC ≈ [\d.,]+ USDT · Your rate: 1 BTC ≈ [\d.,]+ USDT, you get 2\.0% more$/,
  );

  await page.goto('/products/stealth-virtual-card');
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Rate now' })).toContainText('you get 2.0% more');

  await page.goto('/affiliate-program');
  await hydrated(page);
  const level = page.getByRole('region', { name: 'Your level' });
  await expect(level).toContainText('Level: Silver');
  await expect(level).toContainText('0 of 50 completed exchanges to Gold');
  await expect(level.getByRole('progressbar')).toHaveAttribute('max', '50');

  // In Russian (last: the choice sticks) the same figure keeps its one decimal, with a decimal comma.
  await page.goto('/ru');
  await hydrated(page);
  await expect(page.locator('form#exchange').getByRole('status')).toContainText(
    'вы получаете на 2,0% больше',
  );
});

test('the mini-app shows the rate and the tighter limits before typing', async ({ page }) => {
  const rate = await visitorRate('BTC', 'USDTTRC20');
  await page.goto(launchUrl({ user: newTelegramUser() }));
  const status = page.getByRole('status').filter({ hasText: '1 BTC ≈' });
  await expect(status).toContainText(/^1 BTC ≈ [\d.,]+ USDT/);
  await expect(status).toContainText(`Min: 0.0005 BTC · Max: ${trim(rate.sendLimits.max)} BTC`);
});
