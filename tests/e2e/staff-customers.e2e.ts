import type { Page } from '@playwright/test';

import { adminGraphql, uniqueEmail } from './accounts.ts';
import {
  graphqlAs,
  newCustomer,
  newManager,
  signInAsAdmin,
  signInAsPerson,
  type Person,
} from './staff-session.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The staff console's customers pages (issue 7): a manager answers a support request with the
 * feedback form (the mail reaches the test SMTP server) and marks it handled and not; a manager
 * gives a customer a custom rate and the customer's quote follows it, then returns when it is
 * removed; administrators edit the user levels, managers only read them. Screenshots at 1280 px
 * are kept as artifacts; axe finds nothing serious; the pages speak Russian and Ukrainian.
 */

const submitRequest = (customer: Person, name: string, message: string, orderId?: string) =>
  graphqlAs<{ submitSupportRequest: { id: string } }>(
    customer.tokens,
    `mutation ($input: SupportRequestInput!) { submitSupportRequest(input: $input) { id } }`,
    { input: { name, email: customer.email, message, ...(orderId ? { orderId } : {}) } },
  );

/** The request's card on the page. */
const requestCard = (page: Page, email: string) =>
  page.getByRole('article').filter({ hasText: email });

test('a manager answers a support request by e-mail and marks it handled and not', async ({
  page,
  mailbox,
}, testInfo) => {
  const customer = await newCustomer('asks');
  const submitted = await submitRequest(
    customer,
    'Sam Asks',
    'My order has not arrived.\nCan you check?',
    'no-such-order',
  );
  expect(submitted.errors).toBeUndefined();
  const manager = await newManager('support-desk');
  await signInAsPerson(page, manager);

  await page.goto('/admin/support-requests');
  await hydrated(page);
  await expect(page).toHaveTitle(/Support requests/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support requests');
  const card = requestCard(page, customer.email);
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Sam Asks' })).toBeVisible();
  await expect(card).toContainText('My order has not arrived.');
  await expect(card).toContainText('no-such-order');
  await expect(card.locator('.status')).toHaveText('Not handled');
  await page.screenshot({
    path: testInfo.outputPath('admin-support-requests-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);

  // Reply: the form takes the request's address; the fields are checked first.
  await card.getByRole('button', { name: 'Reply' }).click();
  const form = page.getByRole('region', { name: 'Write to a customer' });
  await expect(form).toContainText('Replying to the request of Sam Asks');
  await expect(form.getByLabel('Email')).toHaveValue(customer.email);
  await expect(form.getByLabel('Subject')).toHaveValue('Your support request');
  await expect(form.getByLabel('Message')).toBeFocused();
  await form.getByRole('button', { name: 'Send e-mail' }).click();
  await expect(form.getByText('The field is required')).toBeVisible();
  await expect(form.getByLabel('Message')).toHaveAttribute('aria-invalid', 'true');

  const subject = `About your order ${Date.now()}`;
  const message = 'We found your order: it is on its way.\nThank you for waiting.';
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Message').fill(message);
  await form.getByRole('button', { name: 'Send e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this e-mail?' });
  await expect(dialog).toContainText(customer.email);
  await expect(dialog).toContainText(subject);
  await expect(dialog).toContainText('The request will be marked handled.');
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();

  const mail = await mailbox.waitFor(customer.email, (received) => received.subject === subject);
  expect(mail.text).toContain('We found your order: it is on its way.');
  expect(mail.text).toContain('Thank you for waiting.');
  await expect(page.getByRole('status').getByText(`The e-mail to ${customer.email}`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.locator('.status')).toHaveText('Handled');
  await expect(card).toContainText('Feedback sent (1)');
  await expect(card).toContainText(subject);
  await expect(card).toContainText(`Handled by${manager.email}`);

  // The same mail twice is refused with a clear message (a double click), and nothing is sent.
  await card.getByRole('button', { name: 'Reply' }).click();
  await form.getByLabel('Subject').fill(subject);
  await form.getByLabel('Message').fill(message);
  await form.getByRole('button', { name: 'Send e-mail' }).click();
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'The same subject and message were already sent to this address in the last 10 minutes',
  );
  await dialog.getByRole('button', { name: 'Back' }).click();
  expect(mailbox.to(customer.email)).toHaveLength(1);

  // Not handled, then handled again.
  await card.getByRole('button', { name: 'Mark not handled' }).click();
  await expect(card.locator('.status')).toHaveText('Not handled');
  await card.getByRole('button', { name: 'Mark handled' }).click();
  await expect(card.locator('.status')).toHaveText('Handled');

  // The filters live in the address.
  await page.getByLabel('Status').selectOption('no');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/admin\/support-requests\?handled=no$/);
  await expect(page.getByText(/^Requests: \d+$/)).toBeVisible();
  await expect(requestCard(page, customer.email)).toHaveCount(0);
  await page.getByLabel('Status').selectOption('yes');
  const today = new Date();
  const day = (date: Date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  await page.getByLabel('Received from').fill(day(today));
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`handled=yes&from=${day(today)}$`));
  await expect(requestCard(page, customer.email)).toBeVisible();
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  await page.getByLabel('Received to').fill(day(yesterday));
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('The end date is before the start date')).toBeVisible();
  await page.getByLabel('Received from').fill('');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`handled=yes&to=${day(yesterday)}$`));
  await expect(requestCard(page, customer.email)).toHaveCount(0);
  await page.getByRole('link', { name: 'Reset filters' }).first().click();
  await expect(page).toHaveURL(/\/admin\/support-requests$/);
  await expect(requestCard(page, customer.email)).toBeVisible();
});

interface QuoteAnswer {
  quote: { receiveAmount: string; rate: string };
}

/** The customer's quote for 1000 USDT (TRC20) into BTC: the BTC leg is the one they buy. */
async function quoteOf(customer: Person): Promise<string> {
  const answer = await graphqlAs<QuoteAnswer>(
    customer.tokens,
    `query ($input: QuoteInput!) { quote(input: $input) { receiveAmount rate } }`,
    { input: { from: 'USDTTRC20', to: 'BTC', side: 'send', amount: '1000' } },
  );
  if (!answer.data) throw new Error(JSON.stringify(answer.errors));
  // As people read it: `0.00975000` → `0.00975`.
  return answer.data.quote.receiveAmount.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** ⌊1000 × USDT price × (1 − sell margin of `new`) / buyRate⌋ to 8 decimals (decision 008). */
async function expectedReceive(buyRate: bigint): Promise<string> {
  const data = await adminGraphql<{
    rates: Array<{ price_usdt: string }>;
    user_levels_by_pk: { sell_margin: string };
  }>(
    `query {
       rates(where: { currency_code: { _eq: "USDTTRC20" } },
             order_by: [{ fetched_at: desc }, { provider: asc }], limit: 1) { price_usdt }
       user_levels_by_pk(status: "new") { sell_margin }
     }`,
  );
  const scale = (value: string, decimals: number) => {
    const [int = '0', frac = ''] = value.split('.');
    return BigInt(`${int}${frac.padEnd(decimals, '0').slice(0, decimals)}`);
  };
  const price = scale(data.rates[0]!.price_usdt, 12);
  const keep = 1_000_000n - scale(data.user_levels_by_pk.sell_margin, 6);
  // 1000 × price × keep / buyRate, in units of 1e-8 BTC.
  const units = (1000n * price * keep * 100_000_000n) / (buyRate * 10n ** 12n * 1_000_000n);
  const text = units.toString().padStart(9, '0');
  return `${text.slice(0, -8)}.${text.slice(-8)}`.replace(/0+$/, '').replace(/\.$/, '');
}

test("a manager sets a customer's custom BTC rate; the customer's quote follows it, then returns", async ({
  page,
}, testInfo) => {
  const customer = await newCustomer('rated');
  const before = await quoteOf(customer);
  const manager = await newManager('rates-desk');
  await signInAsPerson(page, manager);

  await page.goto('/admin/user-custom-currency');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('User custom currency');
  // Managers read the levels but cannot change them.
  const levels = page.getByRole('region', { name: 'User levels' });
  await expect(levels.getByRole('cell', { name: 'new', exact: true })).toBeVisible();
  await expect(levels.getByText('Only administrators can change the levels.')).toBeVisible();
  await expect(levels.getByRole('button')).toHaveCount(0);

  // A part of the address, in another case, finds the customer; the one match opens.
  await page
    .getByLabel('E-mail or Telegram username')
    .fill(customer.email.slice(0, -12).toUpperCase());
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  const panel = page.getByRole('region', { name: `Customer ${customer.email}` });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('new');
  await expect(panel).toContainText('Completed orders0');
  await expect(panel.getByText('No custom rates')).toBeVisible();
  await expect(panel.getByLabel('Level (status)')).toHaveCount(0);

  await panel.getByLabel('Currency').selectOption('BTC');
  await expect(panel).toContainText('Market price:');
  await panel.getByRole('button', { name: 'Save the rates' }).click();
  await expect(panel.getByText('Enter a buy rate, a sell rate or both.')).toBeVisible();
  await panel.getByLabel('Buy rate, USDT per 1 BTC').fill('abc');
  await panel.getByRole('button', { name: 'Save the rates' }).click();
  await expect(panel.getByText('Enter a positive number, for example 98500.5')).toBeVisible();
  await panel.getByLabel('Buy rate, USDT per 1 BTC').fill('100000');
  await panel.getByRole('button', { name: 'Save the rates' }).click();
  await expect(page.getByRole('status').getByText('The rates for BTC are saved.')).toBeVisible();
  const row = panel.getByRole('row').filter({ hasText: 'BTC' });
  await expect(row).toContainText('100,000');
  await expect(row).toContainText('Level margin');

  const custom = await quoteOf(customer);
  expect(custom).not.toBe(before);
  expect(custom).toBe(await expectedReceive(100_000n));

  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({
    path: testInfo.outputPath('admin-user-custom-currency-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);

  await panel.getByRole('button', { name: 'Remove the rates for BTC' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the custom rates for BTC?' });
  await expect(dialog).toContainText(customer.email);
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(
    page.getByRole('status').getByText('The custom rates for BTC are removed'),
  ).toBeVisible();
  await expect(panel.getByText('No custom rates')).toBeVisible();
  expect(await quoteOf(customer)).toBe(before);
});

test('administrators edit the user levels and set a customer’s level', async ({ page }) => {
  const customer = await newCustomer('leveled');
  await signInAsAdmin(page);
  await page.goto('/admin/user-custom-currency');
  await hydrated(page);
  const levels = page.getByRole('region', { name: 'User levels' });
  await expect(levels.getByRole('button', { name: 'Edit the level new' })).toBeVisible();
  // `new` is every customer's fallback: it cannot be deleted.
  await expect(levels.getByRole('button', { name: 'Delete the level new' })).toHaveCount(0);

  // A level of this test's own, so other tests' prices stay as they are.
  const status = `e2e_${Date.now().toString(36)}`;
  const minOrders = String(100_000 + Math.floor(Math.random() * 800_000));
  await levels.getByRole('button', { name: 'Add a level' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add a level' });
  await dialog.getByLabel('Status').fill(status);
  await dialog.getByLabel('Buy margin, %').fill('150');
  await dialog.getByLabel('Sell margin, %').fill('1');
  await dialog.getByLabel('Min completed orders').fill(minOrders);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter a percentage from 0 to under 100')).toBeVisible();
  await dialog.getByLabel('Buy margin, %').fill('1.5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = levels.getByRole('row').filter({ hasText: status });
  await expect(row).toContainText('1.5 %');

  await row.getByRole('button', { name: `Edit the level ${status}` }).click();
  dialog = page.getByRole('dialog', { name: `Edit the level ${status}` });
  await expect(dialog.getByLabel('Buy margin, %')).toHaveValue('1.5');
  await dialog.getByLabel('Buy margin, %').fill('2.25');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('2.25 %');
  const stored = await adminGraphql<{ user_levels_by_pk: { buy_margin: string } }>(
    'query ($status: String!) { user_levels_by_pk(status: $status) { buy_margin } }',
    { status },
  );
  expect(Number(stored.user_levels_by_pk.buy_margin)).toBe(0.0225);

  // The customer's level, set by the administrator.
  await page.getByLabel('E-mail or Telegram username').fill(customer.email);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  const panel = page.getByRole('region', { name: `Customer ${customer.email}` });
  await panel.getByLabel('Level (status)').selectOption(status);
  await panel.getByRole('button', { name: 'Set the level' }).click();
  await page
    .getByRole('dialog', { name: 'Change the customer’s level?' })
    .getByRole('button', { name: 'Set the level' })
    .click();
  await expect(page.getByRole('status').getByText(`is now at level ${status}`)).toBeVisible();
  await expect(panel).toContainText(`Level${status}`);

  await row.getByRole('button', { name: `Delete the level ${status}` }).click();
  await page
    .getByRole('dialog', { name: `Delete the level ${status}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(levels.getByRole('row').filter({ hasText: status })).toHaveCount(0);
  // Its customer now has the prices of `new`.
  await expect(panel).toContainText(`${status} (no such level: the prices of new apply)`);
});

test('the pages in Russian and Ukrainian', async ({ page }) => {
  const customer = await newCustomer('ru-rates');
  await submitRequest(customer, 'Олег', 'Где мой заказ?');
  const manager = await newManager('ru-desk');
  await signInAsPerson(page, manager);

  await page.goto(`/ru/admin/user-custom-currency?q=${encodeURIComponent(customer.email)}`);
  await hydrated(page);
  await expect(page.locator('html')).toHaveAttribute('lang', /^ru/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Индивидуальные курсы пользователей',
  );
  await expect(page.getByRole('region', { name: `Клиент ${customer.email}` })).toContainText(
    'Курс покупки: цена в USDT за единицу',
  );
  await expect(page.getByRole('heading', { name: 'Уровни пользователей' })).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.goto('/ua/admin/support-requests');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Звернення до підтримки');
  const card = requestCard(page, customer.email);
  await expect(card.locator('.status')).toHaveText('Не опрацьовано');
  await card.getByRole('button', { name: 'Відповісти' }).click();
  const form = page.getByRole('region', { name: 'Написати клієнту' });
  await form.getByLabel('Тема').fill('');
  await form.getByRole('button', { name: 'Надіслати лист' }).click();
  await expect(form.getByText("Поле обов'язкове для заповнення").first()).toBeVisible();
});

test('at 390 px the pages still work', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const customer = await newCustomer('phone');
  const manager = await newManager('phone-desk');
  await signInAsPerson(page, manager);
  await page.goto(`/admin/user-custom-currency?q=${encodeURIComponent(uniqueEmail('nobody'))}`);
  await hydrated(page);
  await expect(page.getByText(/No customer matches/)).toBeVisible();
  await page.goto(`/admin/user-custom-currency?q=${encodeURIComponent(customer.email)}`);
  await hydrated(page);
  await expect(page.getByRole('region', { name: `Customer ${customer.email}` })).toBeVisible();
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({
    path: testInfo.outputPath('admin-user-custom-currency-390.png'),
    fullPage: true,
  });
  await page.goto('/admin/support-requests');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support requests');
  await expect(page.getByRole('button', { name: 'Send e-mail' })).toBeVisible();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
    390,
  );
  await page.screenshot({
    path: testInfo.outputPath('admin-support-requests-390.png'),
    fullPage: true,
  });
});
