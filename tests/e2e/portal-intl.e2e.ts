import { newCustomer, signInAsPerson } from './staff-session.ts';
import { createOrder, DEPOSIT_ADDRESS, TRC20_ADDRESS } from './staff-orders-harness.ts';
import { expect, hydrated, test } from './support.ts';
import { operator } from './trust-helpers.ts';

/*
 * Issue 23: dates and numbers in the page's language, one style each. An order of 0.05 BTC
 * (some 4,600 USDT) read in English and in Russian: grouping and the decimal mark follow the
 * language, and every date on the page (created, pay by) is written the same way.
 */

test('the order page writes amounts and dates in its language', async ({ page }) => {
  const customer = await newCustomer('intl');
  const order = await createOrder(customer, {
    from: 'BTC',
    to: 'USDTTRC20',
    amount: '0.05',
    walletAddress: TRC20_ADDRESS,
  });
  await operator.supplyAddress(order.id, DEPOSIT_ADDRESS);
  await signInAsPerson(page, customer);

  await page.goto(`/transaction/${order.id}`);
  await hydrated(page);
  const summary = page.locator('.order-summary');
  await expect(summary).toContainText('0.05 BTC');
  // Thousands grouped with a comma, decimals after a point.
  await expect(summary).toContainText(/\d,\d{3}\.\d+ USDT/);
  // One date style: "Nov 28, 2026, 4:13 PM", for the creation and the payment deadline alike.
  const english = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/;
  await expect(summary).toContainText(english);
  await expect(page.locator('.order-state')).toContainText(english);
  await expect(summary).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}/);

  await page.goto(`/ru/transaction/${order.id}`);
  await hydrated(page);
  // A decimal comma, and a no-break space between thousands.
  await expect(summary).toContainText('0,05 BTC');
  await expect(summary).toContainText(/\d\u00a0\d{3},\d+ USDT/);
  const russian = /\d{1,2} [а-я]+\.? \d{4} г\., \d{2}:\d{2}/;
  await expect(summary).toContainText(russian);
  await expect(page.locator('.order-state')).toContainText(russian);
});
