import AxeBuilder from '@axe-core/playwright';

import { expect, hydrated, test } from './support.ts';

/*
 * What the page downloads for its texts (only its own language), and the home widget's currency
 * picker: a windowed listbox driven from the search field with the keyboard.
 */

/** The catalog chunks a page loads: `assets/<locale>-<hash>.js` (shared/src/i18n/load.ts). */
const CATALOG_CHUNK = /\/assets\/(en|ru|ua)-[\w-]+\.js$/;

for (const { path, locale } of [
  { path: '/', locale: 'en' },
  { path: '/ru/contact', locale: 'ru' },
]) {
  test(`${path} downloads the texts of ${locale} only`, async ({ page }) => {
    const catalogs: string[] = [];
    page.on('response', (response) => {
      const match = CATALOG_CHUNK.exec(new URL(response.url()).pathname);
      if (match) catalogs.push(match[1]!);
    });
    await page.goto(path);
    await hydrated(page);
    expect(catalogs).toEqual([locale]);
  });
}

test('the currency picker renders a window of the list and follows the keyboard', async ({
  page,
}) => {
  // Tall enough for the whole popover, so "in viewport" means "in view in the list".
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('button', { name: /^To:/ }).click();
  const search = page.getByRole('combobox', { name: 'Search currency' });
  await expect(search).toBeFocused();

  // The current choice is active; only the rows in view (and a few more) are rendered.
  const options = page.getByRole('option');
  const total = Number(await options.first().getAttribute('aria-setsize'));
  expect(total).toBeGreaterThan(30);
  expect(await options.count()).toBeLessThan(total);
  const activeOption = async () => {
    const id = await search.getAttribute('aria-activedescendant');
    expect(id).toBeTruthy();
    return page.locator(`[id="${id}"]`);
  };
  await expect(await activeOption()).toHaveAttribute('aria-selected', 'true');

  // Down the list: the active row scrolls into view and stays rendered, to the very last one.
  for (let step = 0; step < 25; step++) await search.press('ArrowDown');
  await expect(await activeOption()).toBeInViewport();
  for (let step = 0; step < 10; step++) await search.press('PageDown');
  await expect(await activeOption()).toHaveAttribute('aria-posinset', String(total));
  await expect(await activeOption()).toBeInViewport();
  const { violations } = await new AxeBuilder({ page }).include('.picker__popover').analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  await search.fill('monero');
  await search.press('Enter');
  const button = page.getByRole('button', { name: /^To:.*Monero/ });
  await expect(button).toBeFocused();

  await button.click();
  await search.fill('no such currency');
  await expect(page.getByRole('status').filter({ hasText: 'Nothing found' })).toBeVisible();
  await expect(search).toHaveAttribute('aria-expanded', 'false');
  await search.press('Escape');
  await expect(button).toBeFocused();
});
