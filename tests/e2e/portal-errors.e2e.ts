import type { Page } from '@playwright/test';

import { newCustomer, newManager, signInAsAdmin, signInAsPerson } from './staff-session.ts';
import { expect, expectedFailures, hydrated, test } from './support.ts';

/*
 * Issue 23: the portal's error answers and markup. A malformed address, a page a signed-in
 * customer may not open and a form posted to a page without an action each get a branded page
 * with an honest status and title, never a stack trace; pages hydrate without warnings (the CSP
 * nonce); the main menu, the language links and the mini-app's title say the right thing; staff
 * find their console's sections in the header.
 */

/** What a response must never show: a stack trace or a path on the server. */
function expectNoServerInternals(body: string): void {
  expect(body).not.toMatch(/URIError|\n\s+at |node_modules|\/work\/|Internal Server Error/);
}

test('a malformed address answers 400 with the branded page in its language, never a stack', async ({
  page,
  request,
  consoleErrors,
}) => {
  for (const url of [
    '/transaction/%E0%A4%A',
    '/ru/transaction/%E0%A4%A',
    '/%E0%A4%A',
    '/telegram-app/%E0%A4%A',
    '/assets/%E0%A4%A.js',
  ]) {
    const response = await request.get(url, { headers: { accept: 'text/html' } });
    expect(response.status(), url).toBe(400);
    expectNoServerInternals(await response.text());
  }

  const russian = await page.goto('/ru/transaction/%E0%A4%A');
  expect(russian?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Неверный адрес');
  await expect(page).toHaveTitle('Неверный адрес');
  // The site's frame: its header and its footer.
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

  const ukrainian = await page.goto('/ua/transaction/%E0%A4%A');
  expect(ukrainian?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Невірна адреса');

  // Signed in, the header is the person's as on any page.
  const customer = await newCustomer('errors-malformed');
  await signInAsPerson(page, customer);
  const english = await page.goto('/transaction/%E0%A4%A?lang=en');
  expect(english?.status()).toBe(400);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This address is not valid');
  await expect(page.getByRole('link', { name: 'Back to the home page' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(customer.email)).toBeVisible();
  // The browser reports the document's own 400; nothing else may fail.
  expectedFailures(consoleErrors, /status of 400/);
});

test('an unknown address answers 404 with the branded "Page not found"', async ({
  page,
  request,
  consoleErrors,
}) => {
  // Not even the page's data calls it a server error.
  // Unmatched paths and the routes whose slug names nothing (product, partner, rules, pair).
  for (const url of [
    '/no/such/page',
    '/products/no-such-product',
    '/for-partners/no-such-partner',
    '/rules/no-such-rules',
    '/create-transaction/btc-to-nothing',
  ]) {
    const plain = await request.get(url);
    expect(plain.status(), url).toBe(404);
    expectNoServerInternals(await plain.text());
  }

  const response = await page.goto('/ru/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена');
  await expect(page.getByRole('banner')).toBeVisible();
  expectedFailures(consoleErrors, /status of 404/);
});

test('a form posted to a page without an action gets a branded 405, not "Internal Server Error"', async ({
  request,
}) => {
  for (const [url, title] of [
    ['/rules', 'The form was not sent'],
    ['/ru/rules', 'Форма не отправлена'],
  ] as const) {
    const response = await request.post(url, {
      form: { email: 'someone@example.com' },
      headers: { accept: 'text/html' },
    });
    expect(response.status(), url).toBe(405);
    const body = await response.text();
    expectNoServerInternals(body);
    expect(body).toContain(`<title>${title}</title>`);
    expect(body).toContain(`<h1>${title}</h1>`);
  }
});

test('a signed-in customer on an admin page sees a branded "No access", in their language', async ({
  page,
}) => {
  const customer = await newCustomer('errors-guard');
  await signInAsPerson(page, customer);
  await page.goto('/admin/transactions');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No access');
  await expect(page).toHaveTitle('No access');
  await expect(page.getByText(customer.email).first()).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await page.goto('/ua/admin/managers');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Немає доступу');
});

/** The console's warnings and errors of one page, after it hydrated. */
async function consoleOf(page: Page, url: string): Promise<string[]> {
  const messages: string[] = [];
  const listener = (message: { type(): string; text(): string }) => {
    if (message.type() === 'warning' || message.type() === 'error')
      messages.push(`${message.type()}: ${message.text()}`);
  };
  page.on('console', listener);
  await page.goto(url);
  await hydrated(page);
  // Hydration warnings come right after the first render.
  await page.waitForTimeout(500);
  page.off('console', listener);
  return messages;
}

test('pages hydrate without warnings, and nonces are only where React skips them', async ({
  page,
  request,
}) => {
  for (const url of ['/', '/login', '/products/car-purchase', '/ru/']) {
    expect(await consoleOf(page, url), url).toEqual([]);
    // React Router gives the response's nonce to what it renders; React skips the check on its
    // scripts and module preloads (suppressHydrationWarning), on nothing else. A nonce anywhere
    // else is the server's HTML differing from the browser's render.
    const html = await (await request.get(url)).text();
    const nonced = [...html.matchAll(/<(?:script|link)\b[^>]*\snonce="[^"]+"[^>]*>/g)]
      .map((match) => match[0])
      .filter((tag) => !tag.startsWith('<script') && !/rel="modulepreload"/.test(tag));
    expect(nonced, url).toEqual([]);
    expect(html, url).not.toMatch(/<(?!script|link)[a-z]+\b[^>]*\snonce="[^"]+"/);
  }
});

test('the main menu is named "Main menu" and the language links use BCP 47 tags', async ({
  page,
}) => {
  await page.goto('/ua/');
  await hydrated(page);
  await expect(page.getByRole('navigation', { name: 'Головне меню' })).toHaveCount(1);
  // ?lang=en: the visit to /ua/ remembered Ukrainian.
  await page.goto('/?lang=en');
  await hydrated(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(1);
  const languages = page.getByRole('list', { name: 'Language' }).getByRole('link');
  await expect(languages).toHaveCount(3);
  const tags = await Promise.all(
    [0, 1, 2].map((index) => languages.nth(index).getAttribute('hreflang')),
  );
  expect(tags).toEqual(['en', 'ru', 'uk-UA']);
  // The alternates in the head agree with them.
  const alternates = page.locator('link[rel="alternate"][hreflang]');
  const alternateTags = await Promise.all(
    Array.from({ length: await alternates.count() }, (_, index) =>
      alternates.nth(index).getAttribute('hreflang'),
    ),
  );
  expect(alternateTags).toContain('uk-UA');
  expect(alternateTags.filter((tag) => tag === 'ua')).toEqual([]);
});

test("the mini-app's title follows its language", async ({ page }) => {
  for (const [path, title] of [
    ['/telegram-app/', 'Exchange'],
    ['/ru/telegram-app/', 'Обмен'],
    ['/ua/telegram-app/', 'Обмін'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
});

for (const width of [390, 1280]) {
  test(`staff find the console's sections in the header at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    await page.goto('/');
    await hydrated(page);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    if (width < 900) await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByText('Staff console', { exact: true }).click();
    for (const name of [
      'Transactions',
      'Managers',
      'Bank accounts',
      'User custom currency',
      'Support requests',
      'Audit log',
    ]) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // Nothing in the header runs off the page.
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await menu.getByRole('link', { name: 'Bank accounts', exact: true }).click();
    await expect(page).toHaveURL('/admin/bank-accounts');
  });
}

test("a manager's header has the console's sections but the administrators' only", async ({
  page,
}) => {
  await signInAsPerson(page, await newManager('errors-header'));
  await page.goto('/');
  await hydrated(page);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByText('Staff console', { exact: true }).click();
  await expect(menu.getByRole('link', { name: 'Bank accounts', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Managers', exact: true })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Audit log', exact: true })).toHaveCount(0);
});
