import { expect, expectedFailures, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The public frame of the portal: pages render in each language with the right lang, title
 * and alternates; an unknown path is a real 404; the home widget quotes live.
 */

const LOCALES = [
  { prefix: '', lang: 'en', title: /Exchange crypto and cash/ },
  { prefix: '/ru', lang: 'ru', title: /Обмен криптовалюты/ },
  { prefix: '/ua', lang: 'uk-UA', title: /Обмін криптовалюти/ },
] as const;

for (const { prefix, lang, title } of LOCALES) {
  test(`home renders in ${lang}`, async ({ page }) => {
    const response = await page.goto(`${prefix}/`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page).toHaveTitle(title);
    await expect(page.locator('link[rel="alternate"][hreflang="uk-UA"]')).toHaveAttribute(
      'href',
      /\/ua$/,
    );
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await hydrated(page);
  });
}

test('an unknown path answers 404 with the "Page not found" page, in its language', async ({
  page,
  consoleErrors,
}) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const ukrainian = await page.goto('/ua/nothing-here');
  expect(ukrainian?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Сторінку не знайдено' })).toBeVisible();
  await expect(page).toHaveTitle('Сторінку не знайдено');
  // The browser reports the document's own 404; nothing else may fail.
  expectedFailures(consoleErrors, /status of 404/);
});

test('the home widget quotes as the visitor types, and offers the order form', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByLabel('You Send').fill('0.1');
  // BTC -> USDT (TRC20) at the seeded offline rate, less the `new` level's margins.
  await expect(page.getByLabel('You Get')).toHaveValue(/^\d{4}(\.\d+)?$/);
  await expect(page.locator('#widget-status')).toContainText('1 BTC ≈');

  await page.getByLabel('You Send').fill('0.00001');
  await expect(page.locator('#widget-status')).toContainText(
    'The least you can exchange is 0.0005 BTC.',
  );

  await page.getByRole('button', { name: /^To:/ }).click();
  await page.getByRole('combobox', { name: 'Search currency' }).fill('monero');
  await page.getByRole('option', { name: /XMR/ }).click();
  await expect(page.getByRole('button', { name: /^To:.*Monero/ })).toBeVisible();

  await page.getByLabel('You Send').fill('0.5');
  await expect(page.getByRole('button', { name: 'Exchange', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Exchange', exact: true }).click();
  await expect(page).toHaveURL(/\/create-transaction\/btc-to-xmr\?side=send&amount=0\.5$/);
});

test('the widget opens preset on the pair a product page links to', async ({ page }) => {
  await page.goto('/?from=USDTTRC20&to=EUR#exchange');
  await hydrated(page);
  await expect(page.getByRole('button', { name: /^From:.*USDT/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^To:.*Euro/ })).toBeVisible();
});

test('a ref link stores the referral code for 30 days', async ({ page, context }) => {
  await page.goto('/?ref=Partner42');
  const cookie = (await context.cookies()).find((entry) => entry.name === 'referral_code');
  expect(cookie?.value).toBe('Partner42');
  const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
});

test('a visitor whose browser speaks Russian lands on /ru, and can switch to English', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'ru-RU' });
  const page = await context.newPage();
  await page.goto('/contact-us-nowhere');
  expect(page.url()).toMatch(/\/ru\/contact-us-nowhere$/);
  await page.goto('/');
  expect(page.url()).toMatch(/\/ru$/);
  await page.getByRole('link', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The choice is remembered.
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await context.close();
});

test('an address without a language prefix tells caches its answer depends on the language asked', async ({
  request,
}) => {
  // The unprefixed page answers by cookie and Accept-Language (spec section 2): a shared cache
  // that ignored them would hand one visitor's redirect or language to the next.
  const varyOf = (response: { headers(): Record<string, string> }) =>
    (response.headers()['vary'] ?? '').toLowerCase().split(/\s*,\s*/);
  const redirect = await request.get('/rules', {
    headers: { 'accept-language': 'ru' },
    maxRedirects: 0,
  });
  expect(redirect.status()).toBe(302);
  expect(varyOf(redirect)).toEqual(expect.arrayContaining(['accept-language', 'cookie']));
  const english = await request.get('/rules', { headers: { 'accept-language': 'en' } });
  expect(english.status()).toBe(200);
  expect(varyOf(english)).toEqual(expect.arrayContaining(['accept-language', 'cookie']));
  // A prefixed address names its language: nothing to vary on.
  const russian = await request.get('/ru/rules');
  expect(varyOf(russian)).not.toContain('accept-language');
});

for (const width of [390, 1280]) {
  test(`home at ${width} px: screenshot and no serious accessibility violations`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await hydrated(page);
    // Nothing is wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    await page.screenshot({
      path: testInfo.outputPath(`home-${width}.png`),
      fullPage: true,
    });
    await expectNoSeriousViolations(page);
  });
}
