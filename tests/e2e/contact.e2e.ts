import type { Page } from '@playwright/test';

import {
  accountByEmail,
  adminGraphql,
  registerAccount,
  signInWithTokens,
  uniqueEmail,
} from './accounts.ts';
import { expect, hydrated, test } from './support.ts';

/*
 * The contact page (spec section 2): the support form with the spec's messages, a request that
 * reaches the database through submitSupportRequest, the one-a-minute rule's message (spec
 * section 5) in English and Ukrainian, a signed-in user's request filed under the account, and
 * the contact routes from the public env.
 */

interface SupportRow {
  name: string | null;
  email: string;
  order_id: string | null;
  message: string;
  user_id: string | null;
}

async function requestsOf(email: string): Promise<SupportRow[]> {
  const { support_requests: rows } = await adminGraphql<{ support_requests: SupportRow[] }>(
    `query ($email: String!) {
       support_requests(where: { email: { _eq: $email } }, order_by: { created_at: asc }) {
         name email order_id message user_id
       }
     }`,
    { email },
  );
  return rows;
}

/**
 * Every anonymous request counts against the address it came from (one a minute), and all of
 * this suite's browsers are 127.0.0.1: earlier tests' requests stop counting for the next one.
 */
async function forgetEarlierVisitors(): Promise<void> {
  await adminGraphql(
    `mutation {
       update_support_requests(where: { client_key: { _like: "ip:%" } }, _set: { client_key: null }) {
         affected_rows
       }
     }`,
    {},
  );
}

test.beforeEach(forgetEarlierVisitors);

/** The form's status region (the toaster has its own). */
const formStatus = (page: Page) => page.locator('.contact__form [role="status"]');

test('the contact form: spec messages, a sent request, then the one-a-minute rule', async ({
  page,
}) => {
  const email = uniqueEmail('contact');
  await page.goto('/contact');
  await hydrated(page);
  await expect(page).toHaveTitle(/Contact support/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact us');

  // The other routes, from PUBLIC_CONTACT_EMAIL and PUBLIC_TELEGRAM_* (their defaults here).
  await expect(page.getByRole('link', { name: 'support@exchange.local' })).toHaveAttribute(
    'href',
    'mailto:support@exchange.local',
  );
  await expect(page.getByRole('link', { name: /@exchange_support/ })).toHaveAttribute(
    'href',
    'https://t.me/exchange_support',
  );
  await expect(page.getByRole('link', { name: /@exchange_news/ })).toHaveAttribute(
    'href',
    'https://t.me/exchange_news',
  );

  const send = page.getByRole('button', { name: 'Send', exact: true });
  await send.click();
  await expect(page.getByText('The field is required')).toHaveCount(3);
  await expect(page.getByLabel('Name')).toBeFocused();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Order ID')).not.toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Name').fill('Vera Visitor');
  await page.getByLabel('Email', { exact: true }).fill('vera@');
  await page.getByLabel('Message').fill('Where is my order?\nIt has been an hour.');
  await send.click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await expect(page.getByText('The field is required')).toHaveCount(0);

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Order ID').fill('1042');
  await send.click();
  await expect(formStatus(page)).toContainText('Your request has been sent');
  await expect(formStatus(page)).toContainText(`We will answer to ${email}`);
  await expect(page.getByRole('status').getByText('Success')).toBeVisible();
  expect(await requestsOf(email)).toEqual([
    {
      name: 'Vera Visitor',
      email,
      order_id: '1042',
      message: 'Where is my order?\nIt has been an hour.',
      user_id: null,
    },
  ]);

  // A second request within the minute: refused with the spec's message, nothing stored.
  await page.getByRole('button', { name: 'Send another request' }).click();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(page.getByLabel('Message')).toHaveValue('');
  await page.getByLabel('Message').fill('Any news?');
  await send.click();
  await expect(page.getByRole('alert').filter({ hasText: 'submitted' })).toHaveText(
    'You have already submitted a request recently. Please try again in a minute.',
  );
  await expect(page.getByLabel('Message')).toHaveValue('Any news?');
  expect(await requestsOf(email)).toHaveLength(1);
});

test('in Ukrainian: the required message and the one-a-minute rule', async ({ page }) => {
  const email = uniqueEmail('kontakt');
  await page.goto('/ua/contact');
  await hydrated(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'uk-UA');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("Зв'язатися з нами");

  const send = page.getByRole('button', { name: 'Надіслати', exact: true });
  await send.click();
  await expect(page.getByText("Поле обов'язкове для заповнення")).toHaveCount(3);

  await page.getByLabel("Ім'я").fill('Олена');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Повідомлення').fill('Коли надійдуть кошти?');
  await send.click();
  await expect(formStatus(page)).toContainText('Ваше звернення надіслано');

  await page.getByRole('button', { name: 'Надіслати ще одне звернення' }).click();
  await page.getByLabel('Повідомлення').fill('Ще одне питання');
  await send.click();
  await expect(page.getByRole('alert').filter({ hasText: 'хвилину' })).toHaveText(
    'Ви нещодавно вже надіслали звернення. Будь ласка, спробуйте за хвилину.',
  );
  expect(await requestsOf(email)).toHaveLength(1);
});

test("a signed-in user's request is filed under the account, the e-mail filled in", async ({
  page,
}) => {
  const email = uniqueEmail('member');
  await signInWithTokens(page, await registerAccount(email));
  const account = await accountByEmail(email);

  await page.goto('/contact?orderId=7781');
  await hydrated(page);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(page.getByLabel('Order ID')).toHaveValue('7781');
  await page.getByLabel('Name').fill('Mia Member');
  await page.getByLabel('Message').fill('Please check my order.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(formStatus(page)).toContainText('Your request has been sent');

  expect(await requestsOf(email)).toEqual([
    {
      name: 'Mia Member',
      email,
      order_id: '7781',
      message: 'Please check my order.',
      user_id: account.id,
    },
  ]);
});
