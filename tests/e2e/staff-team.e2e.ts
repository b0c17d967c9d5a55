import type { Page } from '@playwright/test';

import { PASSWORD, signInWithTokens, uniqueEmail } from './accounts.ts';
import {
  graphqlData,
  login,
  newCustomer,
  newManager,
  signInAsAdmin,
  signInAsPerson,
  type Person,
} from './staff-session.ts';
import { expect, expectedFailures, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The staff console's team pages (issue 7): an administrator appoints a manager by e-mail and
 * dismisses them on /admin/managers; a manager keeps the service's bank accounts on
 * /admin/bank-accounts. Both pages are screenshotted at 1280 px, checked with axe, and shown
 * in Russian and Ukrainian (a missing translation is a console error, which fails the test).
 */

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Nothing wider than the viewport (the page is not broken on a phone). */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A customer's EUR order that the manager gives `bankAccountId` as its payment details. */
async function giveToAnOrder(manager: Person, bankAccountId: string): Promise<void> {
  const customer = await newCustomer('eur-payer');
  const { createExchange: order } = await graphqlData<{ createExchange: { id: string } }>(
    customer.tokens,
    'mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id } }',
    {
      input: {
        from: 'EUR',
        to: 'BTC',
        side: 'send',
        amount: '200',
        email: customer.email,
        fullName: 'Erika Payer',
        walletAddress: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
        reason: 'Savings',
        agreeTerms: true,
        agreeAml: true,
        idempotencyKey: crypto.randomUUID(),
      },
    },
  );
  await graphqlData(
    manager.tokens,
    `mutation ($id: uuid!, $account: uuid!) {
       supplyRequisites(transactionId: $id, bankAccountId: $account) { status }
     }`,
    { id: order.id, account: bankAccountId },
    'manager',
  );
}

/** A label no other run of this suite uses. */
const uniqueLabel = (tag: string) => `${tag} ${Date.now().toString(36).slice(-5)}`;

test.describe('staff team pages', () => {
  test('an administrator grants and revokes the manager role by e-mail', async ({
    page,
    browser,
    consoleErrors,
  }, testInfo) => {
    const customer = await newCustomer('appointee');
    await page.setViewportSize(DESKTOP);
    await signInAsAdmin(page);
    await page.goto('/admin/managers');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Managers' })).toBeVisible();
    const staff = page.getByRole('table', { name: 'Staff and their roles' });
    await expect(staff.getByRole('row').filter({ hasText: 'admin@exchange.local' })).toContainText(
      'Administrator',
    );

    const email = page.getByLabel('E-mail of their account');
    const grant = page.getByRole('button', { name: 'Grant the manager role' });

    // Checked before anything is sent.
    await grant.click();
    await expect(page.getByText('The field is required')).toBeVisible();
    await expect(email).toBeFocused();
    await email.fill('not-an-address');
    await grant.click();
    await expect(page.getByText('Invalid email')).toBeVisible();

    // An address nobody signed up with: the action's refusal, in words, next to the field.
    const unknown = uniqueEmail('nobody');
    await email.fill(unknown);
    await grant.click();
    const grantDialog = page.getByRole('dialog', { name: 'Grant the manager role?' });
    await expect(grantDialog).toContainText(unknown);
    await grantDialog.getByRole('button', { name: 'Grant the role' }).click();
    await expect(
      page.getByText(`No account uses the e-mail ${unknown}. The person must sign up first.`),
    ).toBeVisible();
    await expect(grantDialog).toBeHidden();
    await expect(email).toBeFocused();
    expectedFailures(consoleErrors, /status of 404/);

    // Back out of a confirmation: nothing happens.
    await email.fill(customer.email);
    await grant.click();
    await grantDialog.getByRole('button', { name: 'Back' }).click();
    await expect(grantDialog).toBeHidden();
    await expect(staff).not.toContainText(customer.email);

    // Grant.
    await grant.click();
    await grantDialog.getByRole('button', { name: 'Grant the role' }).click();
    await expect(page.getByText(`${customer.email} is now a manager.`)).toBeVisible();
    const row = staff.getByRole('row').filter({ hasText: customer.email });
    await expect(row).toContainText('Manager');
    await expect(email).toHaveValue('');

    await page.screenshot({
      path: testInfo.outputPath('admin-managers-1280.png'),
      fullPage: true,
    });
    await expectNoSeriousViolations(page);

    // The appointee, signed in again, has the staff menu and the bank accounts page (and not
    // the managers page, which is the administrators').
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const theirs = await context.newPage();
      await signInWithTokens(theirs, await login(customer.email, PASSWORD));
      await theirs.goto('/');
      await hydrated(theirs);
      const menu = theirs.getByRole('navigation', { name: 'Main menu' });
      await menu.locator('summary', { hasText: /^Staff console$/ }).click();
      await expect(menu.getByRole('link', { name: 'Bank accounts' })).toBeVisible();
      await expect(menu.getByRole('link', { name: 'Managers' })).toHaveCount(0);
      await menu.getByRole('link', { name: 'Bank accounts' }).click();
      await expect(theirs.getByRole('heading', { level: 1, name: 'Bank accounts' })).toBeVisible();
      await expect(theirs).toHaveURL(/\/admin\/bank-accounts$/);
    } finally {
      await context.close();
    }

    // Revoke, confirmed.
    await row.getByRole('button', { name: `Revoke the manager role of ${customer.email}` }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revoke the manager role?' });
    await expect(revokeDialog).toContainText(customer.email);
    await revokeDialog.getByRole('button', { name: 'Revoke the role' }).click();
    await expect(page.getByText(`${customer.email} is no longer a manager.`)).toBeVisible();
    await expect(staff.getByRole('row').filter({ hasText: customer.email })).toHaveCount(0);

    // Not broken on a phone.
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: testInfo.outputPath('admin-managers-390.png'), fullPage: true });
  });

  test('a manager adds, edits, deactivates and activates a bank account', async ({
    page,
  }, testInfo) => {
    const manager = await newManager('bank-manager');
    await page.setViewportSize(DESKTOP);
    await signInAsPerson(page, manager);

    // The managers page is the administrators' only.
    await page.goto('/admin/managers');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'No access' })).toBeVisible();

    await page.goto('/admin/bank-accounts');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Bank accounts' })).toBeVisible();

    // Validation first: every required field, then the formats.
    await page.getByRole('button', { name: 'Add an account' }).click();
    const editor = page.getByRole('dialog', { name: 'New bank account' });
    await expect(editor.getByLabel('Label (optional)')).toBeFocused();
    await editor.getByRole('button', { name: 'Add the account' }).click();
    await expect(editor.getByText('The field is required')).toHaveCount(5);
    await expect(editor.getByLabel('Beneficiary')).toBeFocused();

    const label = uniqueLabel('E2E EUR');
    await editor.getByLabel('Label (optional)').fill(label);
    await editor.getByLabel('Beneficiary').fill('Exchange Service Ltd');
    await editor.getByLabel('Account number or IBAN').fill('DE89 3704 0044 0532 0130 01');
    await editor.getByLabel('SWIFT/BIC').fill('COBA');
    await editor.getByLabel('Bank address').fill('Kaiserstrasse 16, Frankfurt');
    await editor.getByLabel('Currency').selectOption('EUR');
    await editor.getByRole('button', { name: 'Add the account' }).click();
    await expect(
      editor.getByText('The IBAN’s check digits do not match: look for a typo.'),
    ).toBeVisible();
    await expect(editor.getByText(/A SWIFT\/BIC is 8 or 11 characters/)).toBeVisible();
    await expect(editor.getByLabel('Account number or IBAN')).toBeFocused();

    await editor.getByLabel('Account number or IBAN').fill('DE89 3704 0044 0532 0130 00');
    await editor.getByLabel('SWIFT/BIC').fill('cobadeffxxx');
    await editor.getByRole('button', { name: 'Add the account' }).click();
    await expect(page.getByText(`Bank account ${label} added.`)).toBeVisible();
    await expect(editor).toBeHidden();

    const accounts = page.getByRole('table', { name: 'Bank accounts, active first' });
    const row = accounts.getByRole('row').filter({ hasText: label });
    await expect(row).toContainText('Active');
    await expect(row).toContainText('DE89370400440532013000');
    await expect(row).toContainText('COBADEFFXXX');
    await expect(row).toContainText('EUR');

    await page.screenshot({
      path: testInfo.outputPath('admin-bank-accounts-1280.png'),
      fullPage: true,
    });
    await expectNoSeriousViolations(page);

    // Deactivate, confirmed.
    await row.getByRole('button', { name: `Deactivate ${label}` }).click();
    const deactivate = page.getByRole('dialog', { name: `Deactivate ${label}?` });
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText(`${label} is now inactive.`)).toBeVisible();
    await expect(row).toContainText('Inactive');

    // Activate again.
    await row.getByRole('button', { name: `Activate ${label}` }).click();
    const activate = page.getByRole('dialog', { name: `Activate ${label}?` });
    await expect(activate).toContainText('EUR');
    await activate.getByRole('button', { name: 'Activate' }).click();
    await expect(page.getByText(`${label} is now active.`)).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();

    // Edit a detail of the account (no order was given it, so nothing is fixed).
    await row.getByRole('button', { name: `Edit ${label}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${label}` });
    await expect(edit.getByLabel('Bank address')).toHaveValue('Kaiserstrasse 16, Frankfurt');
    await expect(edit.getByLabel('Account number or IBAN')).toBeEditable();
    await edit.getByLabel('Bank address').fill('Neue Mainzer Strasse 1, Frankfurt');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`Bank account ${label} saved.`)).toBeVisible();
    await expect(row).toContainText('Neue Mainzer Strasse 1, Frankfurt');

    // Once an order was given the account, its payment details are fixed: shown read-only and
    // explained; the label still changes.
    const { bank_accounts: found } = await graphqlData<{ bank_accounts: Array<{ id: string }> }>(
      manager.tokens,
      'query ($label: String!) { bank_accounts(where: { label: { _eq: $label } }) { id } }',
      { label },
      'manager',
    );
    await giveToAnOrder(manager, found[0]!.id);
    await page.reload();
    await hydrated(page);
    await expect(row).toContainText('Details fixed');
    await row.getByRole('button', { name: `Edit ${label}` }).click();
    await expect(edit).toContainText('deactivate it and add a new account');
    await expect(edit.getByLabel('Account number or IBAN')).not.toBeEditable();
    await expect(edit.getByLabel('Currency')).not.toBeEditable();
    const renamed = `${label} old`;
    await edit.getByLabel('Label (optional)').fill(renamed);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`Bank account ${renamed} saved.`)).toBeVisible();
    const renamedRow = accounts.getByRole('row').filter({ hasText: renamed });
    await expect(renamedRow).toContainText('DE89370400440532013000');

    await page.screenshot({ path: testInfo.outputPath('admin-bank-accounts-fixed-1280.png') });

    // Not broken on a phone: the table becomes cards, the editor fits.
    await page.setViewportSize(PHONE);
    await expectNoHorizontalScroll(page);
    await page.screenshot({
      path: testInfo.outputPath('admin-bank-accounts-390.png'),
      fullPage: true,
    });
    await renamedRow.getByRole('button', { name: `Edit ${renamed}` }).click();
    const editRenamed = page.getByRole('dialog', { name: `Edit ${renamed}` });
    await expect(editRenamed).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: testInfo.outputPath('admin-bank-accounts-editor-390.png') });
    await editRenamed.getByRole('button', { name: 'Cancel' }).click();
    await expect(editRenamed).toBeHidden();
  });

  test('the team pages in Russian and Ukrainian have every text translated', async ({ page }) => {
    const admin = await signInAsAdmin(page);
    expect(admin.email).toBe('admin@exchange.local');
    await page.setViewportSize(DESKTOP);

    await page.goto('/ru/admin/bank-accounts');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Банковские счета' })).toBeVisible();
    await page.getByRole('button', { name: 'Добавить счёт' }).click();
    const editor = page.getByRole('dialog', { name: 'Новый банковский счёт' });
    await editor.getByLabel('Номер счёта или IBAN').fill('12');
    await editor.getByRole('button', { name: 'Добавить счёт' }).click();
    await expect(editor.getByText('Поле обязательно для заполнения').first()).toBeVisible();
    await expect(
      editor.getByText('Введите от 5 до 34 латинских букв и цифр: IBAN или местный номер счёта.'),
    ).toBeVisible();
    await expect(editor).not.toContainText(/bankAccounts\.|staffTeam/);
    await editor.getByRole('button', { name: 'Отмена' }).click();
    await expect(page.locator('main')).not.toContainText(/bankAccounts\.|staffTeam|managers\./);

    await page.goto('/ua/admin/managers');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Менеджери' })).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Співробітники та їхні ролі' }).getByRole('row').filter({
        hasText: 'admin@exchange.local',
      }),
    ).toContainText('Адміністратор');
    await expect(page.locator('main')).not.toContainText(/bankAccounts\.|staffTeam|managers\./);
  });
});
