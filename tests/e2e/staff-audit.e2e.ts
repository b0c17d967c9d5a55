import { graphqlData, newManager, signInAsAdmin, signInAsPerson } from './staff-session.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The staff audit log (issue 23, decision 045): a manager's change to a bank account is in the
 * log with who made it and the row before and after; an administrator finds it on
 * /admin/audit-log by table and actor, in English and Russian; a manager has neither the tab nor
 * the log.
 */

/** A label no other run of this suite uses. */
const uniqueLabel = (tag: string) => `${tag} ${Date.now().toString(36).slice(-5)}`;

test.describe('staff audit log', () => {
  test('an administrator finds a manager’s bank account change by table and actor', async ({
    page,
  }) => {
    const manager = await newManager('audited');
    const label = uniqueLabel('Audit EUR');
    const { insert_bank_accounts_one: account } = await graphqlData<{
      insert_bank_accounts_one: { id: string };
    }>(
      manager.tokens,
      `mutation ($object: bank_accounts_insert_input!) {
         insert_bank_accounts_one(object: $object) { id }
       }`,
      {
        object: {
          label,
          beneficiary: 'Exchange Service Ltd',
          account_number: 'DE89370400440532013000',
          swift_bic: 'COBADEFFXXX',
          bank_address: 'Kaiserstrasse 16, Frankfurt',
          currency_code: 'EUR',
        },
      },
      'manager',
    );
    await graphqlData(
      manager.tokens,
      `mutation ($id: uuid!) {
         update_bank_accounts_by_pk(pk_columns: { id: $id }, _set: { is_active: false }) { id }
       }`,
      { id: account.id },
      'manager',
    );

    await signInAsAdmin(page);
    await page.goto('/admin/transactions');
    await hydrated(page);
    await page
      .getByRole('navigation', { name: 'Staff console' })
      .getByRole('link', { name: 'Audit log' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

    const filters = page.getByRole('search', { name: 'Filter the audit log' });
    await filters.getByLabel('What').selectOption('bank_accounts');
    await filters.getByLabel('Who (e-mail contains)').fill(manager.email);
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/table=bank_accounts/);

    const entries = page.getByTestId('audit-entry');
    await expect(entries).toHaveCount(2);
    // Newest first: the deactivation, then the creation.
    const changed = entries.nth(0);
    await expect(changed).toContainText('Changed');
    await expect(changed).toContainText(`${manager.email} (manager)`);
    await expect(changed).toContainText(`Record ${account.id}`);
    const activeRow = changed.getByRole('row', { name: /is_active/ });
    await expect(activeRow.getByRole('cell').nth(0)).toHaveText('yes');
    await expect(activeRow.getByRole('cell').nth(1)).toHaveText('no');
    const created = entries.nth(1);
    await expect(created).toContainText('Created');
    await expect(created.getByRole('row', { name: /label/ })).toContainText(label);
    await expectNoSeriousViolations(page);

    // The same filters in Russian (a missing text would show its key).
    await page.goto(
      `/ru/admin/audit-log?table=bank_accounts&actor=${encodeURIComponent(manager.email)}`,
    );
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Журнал аудита' })).toBeVisible();
    await expect(page.getByTestId('audit-entry').nth(0)).toContainText('Изменено');
    await expect(page.getByTestId('audit-entry').nth(0)).toContainText('(менеджер)');
  });

  test('a manager has no audit log tab and cannot read the log', async ({ page }) => {
    const manager = await newManager('not-auditor');
    await signInAsPerson(page, manager);
    await page.goto('/admin/transactions');
    await hydrated(page);
    const nav = page.getByRole('navigation', { name: 'Staff console' });
    await expect(nav.getByRole('link', { name: 'Bank accounts' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);

    await page.goto('/admin/audit-log');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toHaveCount(0);
    await expect(page.getByTestId('audit-entry')).toHaveCount(0);
  });
});
