import { accountByEmail, adminGraphql, type Tokens } from './accounts.ts';
import { btcOrder, DEPOSIT_ADDRESS, dialog, TRC20_ADDRESS } from './staff-orders-harness.ts';
import { graphqlAs, newCustomer, signInAsAdmin, type Person } from './staff-session.ts';
import { staff } from './staff.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The staff console's bonus withdrawals (issue 7): an administrator approves and rejects a
 * referrer's affiliate bonus withdrawals on the Transactions page.
 */
test.describe.configure({ mode: 'serial' });

/** A referrer with about 246 USDT of bonuses: their referral's 0.5 BTC order, completed. */
async function referrerWithBonus(): Promise<Person> {
  const referrer = await newCustomer('referrer');
  const referral = await newCustomer('referral');
  const { id: referrerId } = await accountByEmail(referrer.email);
  const { id: referralId } = await accountByEmail(referral.email);
  await adminGraphql(
    `mutation ($id: uuid!, $referrer: uuid!) {
       update_portal_users_by_pk(pk_columns: { id: $id }, _set: { referrer_id: $referrer }) { id }
     }`,
    { id: referralId, referrer: referrerId },
  );
  const order = await btcOrder(referral, '0.5');
  await staff.supplyAddress(order.id, DEPOSIT_ADDRESS);
  await staff.confirmPayment(order.id);
  await staff.complete(order.id, 'payout-referral-1');
  return referrer;
}

async function requestWithdrawal(tokens: Tokens, amount: string): Promise<void> {
  const body = await graphqlAs(
    tokens,
    `mutation ($amount: numeric!, $wallet: String!) {
       requestBonusWithdrawal(amount: $amount, walletAddress: $wallet) { id }
     }`,
    { amount, wallet: TRC20_ADDRESS },
  );
  expect(body.errors).toBeUndefined();
}

test('an administrator approves one bonus withdrawal and rejects another', async ({
  page,
}, testInfo) => {
  const referrer = await referrerWithBonus();
  await requestWithdrawal(referrer.tokens, '100');
  await requestWithdrawal(referrer.tokens, '120');

  await signInAsAdmin(page);
  await page.goto('/admin/transactions');
  await hydrated(page);
  await page.getByRole('tab', { name: 'Bonus withdrawals' }).click();
  await expect(page).toHaveURL(/view=withdrawals/);
  await expect(page.getByRole('heading', { name: 'Pending bonus withdrawals' })).toBeVisible();
  const mine = page.getByRole('row').filter({ hasText: referrer.email });
  await expect(mine).toHaveCount(2);
  // Oldest first.
  await expect(mine.first()).toContainText('100 USDT');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-withdrawals-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);

  await page
    .getByRole('button', { name: `Approve the withdrawal of 100 USDT for ${referrer.email}` })
    .click();
  await expect(dialog(page)).toContainText(TRC20_ADDRESS);
  await dialog(page).getByLabel('Payout transaction id').fill('bonus-payout-1');
  await dialog(page).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('The withdrawal of 100 USDT is marked paid.')).toBeVisible();
  await expect(mine).toHaveCount(1);

  await page
    .getByRole('button', { name: `Reject the withdrawal of 120 USDT for ${referrer.email}` })
    .click();
  await dialog(page).getByRole('button', { name: 'Reject' }).click();
  await expect(dialog(page).getByText('The field is required')).toBeVisible();
  await dialog(page).getByLabel('Reason').fill('The wallet failed the AML check');
  await dialog(page).getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('The withdrawal of 120 USDT is rejected.')).toBeVisible();
  await expect(mine).toHaveCount(0);

  const { id: userId } = await accountByEmail(referrer.email);
  const { bonus_withdrawals: rows } = await adminGraphql<{
    bonus_withdrawals: Array<{
      amount_usdt: string;
      status: string;
      payout_tx_id: string | null;
      reject_reason: string | null;
    }>;
  }>(
    `query ($id: uuid!) {
       bonus_withdrawals(where: { user_id: { _eq: $id } }, order_by: { created_at: asc }) {
         amount_usdt status payout_tx_id reject_reason
       }
     }`,
    { id: userId },
  );
  expect(rows).toEqual([
    expect.objectContaining({ status: 'paid', payout_tx_id: 'bonus-payout-1' }),
    expect.objectContaining({
      status: 'rejected',
      reject_reason: 'The wallet failed the AML check',
    }),
  ]);
});
