import { btcOrder, detail, dialog, manager } from './staff-orders-harness.ts';
import { newCustomer, signInAsPerson } from './staff-session.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The staff console's Transactions page as a page (issue 7): it passes axe, is captured at
 * 1280 px (and 390 px), and renders in Russian and Ukrainian.
 */
test.describe.configure({ mode: 'serial' });

test('the page at 1280 px with an order open passes axe, and holds at 390 px', async ({
  page,
}, testInfo) => {
  const customer = await newCustomer('screenshot-buyer');
  const order = await btcOrder(customer, '0.07');
  await signInAsPerson(page, await manager());
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/transactions');
  await hydrated(page);
  await expect(
    page
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .first(),
  ).toBeVisible();
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);

  await page.getByRole('link', { name: `Open order ${order.number}` }).click();
  await expect(detail(page)).toContainText(customer.email);
  await expect(detail(page).getByRole('heading', { level: 2 })).toBeFocused();
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-detail-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);

  // Keyboard: the action opens its dialog, Escape closes it and focus returns.
  const supply = detail(page).getByRole('button', { name: 'Give payment details' });
  await supply.focus();
  await page.keyboard.press('Enter');
  await expect(dialog(page).getByLabel('Deposit address (BTC)')).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await expect(supply).toBeFocused();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/transactions?order=${order.id}`);
  await hydrated(page);
  await expect(detail(page)).toContainText(customer.email);
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-390.png'),
    fullPage: true,
  });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
    390,
  );
});

test('the page renders in Russian and Ukrainian', async ({ page }) => {
  const customer = await newCustomer('locale-buyer');
  const order = await btcOrder(customer);
  await signInAsPerson(page, await manager());

  await page.goto(`/ru/admin/transactions?order=${order.id}`);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Транзакции');
  await expect(page.getByRole('heading', { name: `Заявка ${order.number}` })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Ожидание оператора \(\d+\)$/ })).toBeVisible();
  await detail(page).getByRole('button', { name: 'Отменить заявку' }).click();
  await expect(dialog(page)).toContainText('Это нельзя отменить');
  await dialog(page).getByRole('button', { name: 'Назад' }).click();
  await page.getByRole('tab', { name: 'Вывод бонусов' }).click();
  await expect(page.getByRole('heading', { name: 'Заявки на вывод бонусов' })).toBeVisible();

  await page.goto(`/ua/admin/transactions?order=${order.id}`);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Транзакції');
  await expect(page.getByRole('heading', { name: `Заявка ${order.number}` })).toBeVisible();
  await expect(page.getByText('Історія статусів')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Застосувати' })).toBeVisible();
});
