import { PARTNER_SLUGS, PRODUCT_SLUGS, RULE_SLUGS } from '@app/web/content/slugs';

import { expect, hydrated, test } from './support.ts';

/*
 * Every public route of spec section 2 renders with status 200 in English and in Ukrainian:
 * one h1, a title, the right `lang`, and no console error (a missing translation is one).
 */

const PUBLIC_PATHS = [
  '/',
  '/login',
  '/sign-up',
  '/reset-password',
  '/contact',
  '/rules',
  ...RULE_SLUGS.map((slug) => `/rules/${slug}`),
  ...PRODUCT_SLUGS.map((slug) => `/products/${slug}`),
  ...PARTNER_SLUGS.map((slug) => `/for-partners/${slug}`),
  '/create-transaction/btc-to-xmr',
];

for (const [prefix, lang] of [
  ['', 'en'],
  ['/ua', 'uk-UA'],
] as const) {
  test(`every public page renders in ${lang}`, async ({ page }) => {
    test.setTimeout(240_000);
    for (const path of PUBLIC_PATHS) {
      const url = `${prefix}${path === '/' && prefix ? '' : path}`;
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(200);
      await expect(page.locator('html'), url).toHaveAttribute('lang', lang);
      await expect(page.locator('h1'), url).toHaveCount(1);
      expect(await page.title(), url).not.toBe('');
      await hydrated(page);
    }
  });
}
