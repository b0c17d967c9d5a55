import type { Page } from '@playwright/test';

import { adminGraphql } from './accounts.ts';
import { E2E_PORTS } from './stack.ts';
import {
  graphqlAs,
  graphqlData,
  newCustomer,
  newManager,
  signInAsPerson,
  type Person,
} from './staff-session.ts';
import { staff } from './staff.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';

/*
 * The staff console's order-trust steps (issue 10, decision 015): an order whose payment
 * details are late is highlighted in the queue (sign, "Late", overdue timer; flagged by the
 * deadlines job or the moment its time passes on the page's clock); an operator holds a payment
 * for review with a category and releases it to paid, confirms a smaller amount (the order
 * waits for the customer's choice, underpaid), records a late payment on an expired order, and
 * completes a refund the customer asked for. The late queue is captured at 1280 px.
 */
test.describe.configure({ mode: 'serial' });

const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const DEPOSIT_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const REFUND_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const ACTIONS_URL = `http://127.0.0.1:${E2E_PORTS.actions}`;

interface Order {
  id: string;
  number: string;
}

/** A BTC → USDT (TRC20) order through the API, as the order form sends it. */
async function btcOrder(customer: Person, amount = '0.05'): Promise<Order> {
  const body = await graphqlAs<{ createExchange: { id: string; number: string } }>(
    customer.tokens,
    `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id number } }`,
    {
      input: {
        from: 'BTC',
        to: 'USDTTRC20',
        amount,
        side: 'send',
        walletAddress: TRC20_ADDRESS,
        email: customer.email,
        fullName: 'Tess Trust',
        reason: 'Savings',
        agreeTerms: true,
        agreeAml: true,
        idempotencyKey: crypto.randomUUID(),
      },
    },
  );
  if (!body.data) throw new Error(`createExchange: ${JSON.stringify(body.errors)}`);
  return { id: body.data.createExchange.id, number: String(body.data.createExchange.number) };
}

/** Moves one of the order's deadlines, as time passing would (the admin secret). */
async function setDeadline(
  order: Order,
  column: 'requisites_due_at' | 'pay_by',
  at: Date,
): Promise<void> {
  await adminGraphql(
    `mutation ($id: uuid!, $set: transactions_set_input!) {
       update_transactions_by_pk(pk_columns: { id: $id }, _set: $set) { id }
     }`,
    { id: order.id, set: { [column]: at.toISOString() } },
  );
}

/** One run of the deadlines job, as the engine's cron trigger calls it every minute. */
async function runDeadlinesJob(): Promise<{ expired: string[]; flaggedLate: string[] }> {
  const response = await fetch(`${ACTIONS_URL}/cron/order-deadlines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-actions-secret': 'dev-only-actions-secret' },
    body: '{}',
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { expired: string[]; flaggedLate: string[] };
}

async function orderRow(order: Order) {
  const { transactions_by_pk: row } = await adminGraphql<{
    transactions_by_pk: {
      status: string;
      requisites_late_at: string | null;
      received_amount: string | null;
      action_reason: string | null;
      hold_category: string | null;
      refund_tx_id: string | null;
    };
  }>(
    `query ($id: uuid!) {
       transactions_by_pk(id: $id) {
         status requisites_late_at received_amount action_reason hold_category refund_tx_id
       }
     }`,
    { id: order.id },
  );
  return row;
}

const state: { manager?: Person } = {};
async function manager(): Promise<Person> {
  state.manager ??= await newManager('trust-manager');
  return state.manager;
}

/** A staff step through the API, in the manager role (what another operator would do). */
const asManager = async <T>(query: string, variables: Record<string, unknown>) =>
  graphqlData<T>((await manager()).tokens, query, variables, 'manager');

const detail = (page: Page) => page.locator('.staff-orders__detail');
const dialog = (page: Page) => page.getByRole('dialog');
const chip = (page: Page) => detail(page).locator('.staff-orders__detail-header .status');
const queueRow = (page: Page, order: Order) =>
  page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `Open order ${order.number}` }) });

/** The console in English (`lang`: a Russian or Ukrainian page before set the locale cookie). */
async function openInConsole(page: Page, customer: Person, order: Order): Promise<void> {
  await page.goto(`/admin/transactions?lang=en&email=${encodeURIComponent(customer.email)}`);
  await hydrated(page);
  await page.getByRole('link', { name: `Open order ${order.number}` }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: `Order ${order.number}` }),
  ).toBeVisible();
}

async function startAction(page: Page, action: string): Promise<void> {
  await detail(page).getByRole('button', { name: action, exact: true }).click();
  await expect(dialog(page)).toBeVisible();
}

/** A fact of the detail panel (label → value). */
const fact = (page: Page, label: string) =>
  detail(page)
    .locator('.staff-orders__fact')
    .filter({ has: page.getByText(label, { exact: true }) });

test('late payment details are highlighted in the queue, flagged or the moment they pass', async ({
  page,
}, testInfo) => {
  const customer = await newCustomer('late-buyer');
  const flagged = await btcOrder(customer, '0.05');
  const passing = await btcOrder(customer, '0.06');
  const onTime = await btcOrder(customer, '0.07');

  // The first order's promise passed 12 minutes ago: the deadlines job flags it.
  await setDeadline(flagged, 'requisites_due_at', new Date(Date.now() - 12 * 60_000));
  const report = await runDeadlinesJob();
  expect(report.flaggedLate).toContain(flagged.number);
  expect((await orderRow(flagged)).requisites_late_at).not.toBeNull();
  // The second one's passes in a few seconds, with no job run: the page's own clock shows it.
  await setDeadline(passing, 'requisites_due_at', new Date(Date.now() + 25_000));

  await signInAsPerson(page, await manager());
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin/transactions?email=${encodeURIComponent(customer.email)}`);
  await hydrated(page);

  const late = queueRow(page, flagged).locator('.staff-orders__late');
  await expect(late).toContainText('Late');
  await expect(late).toContainText(/1[2-3]:\d\d overdue/);
  await expect(queueRow(page, onTime).locator('.staff-orders__late')).toHaveCount(0);
  await expect(queueRow(page, onTime)).toContainText(/Details due in \d+:\d\d/);
  // The highlight: the row takes the warning colour (beside the words, not instead of them).
  await expect(queueRow(page, flagged)).toHaveCSS('box-shadow', /rgb\(227, 179, 65\)/);
  await expect(queueRow(page, onTime)).not.toHaveCSS('box-shadow', /rgb\(227, 179, 65\)/);

  await expect(queueRow(page, passing)).toContainText(/Details due in 0:[0-2]\d/);
  await expect(queueRow(page, passing).locator('.staff-orders__late')).toContainText('Late', {
    timeout: 30_000,
  });

  // The banner counts the late orders of the whole queue and leads to them.
  const banner = page.locator('.staff-orders__late-banner');
  await expect(banner).toContainText(
    /Orders waiting past the promised time for payment details: \d+\./,
  );
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-late-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);

  await banner.getByRole('link', { name: 'Show the late orders' }).click();
  await expect(page).toHaveURL(/late=1/);
  await expect(page).toHaveURL(/sort=due/);
  await expect(queueRow(page, flagged)).toBeVisible();
  await expect(queueRow(page, passing)).toBeVisible();
  await expect(queueRow(page, onTime)).toHaveCount(0);
  await expect(page.getByLabel('Late payment details only')).toBeChecked();
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-late-only-1280.png'),
    fullPage: true,
  });

  // The detail: the promise, when it was flagged, the place in the queue.
  await page.getByRole('link', { name: `Open order ${flagged.number}` }).click();
  await expect(chip(page)).toHaveText('Waiting for operator');
  await expect(fact(page, 'Payment details due')).toContainText('Late');
  await expect(fact(page, 'Flagged late')).toBeVisible();
  await expect(fact(page, 'Place in the operator queue')).toContainText(
    /^Place in the operator queue\d+$/,
  );
  await page.screenshot({
    path: testInfo.outputPath('admin-transactions-late-detail-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);
});

test('a payment held for review with a category is released to paid', async ({
  page,
}, testInfo) => {
  const customer = await newCustomer('hold-buyer');
  const order = await btcOrder(customer);
  await staff.supplyAddress(order.id, DEPOSIT_ADDRESS);

  await signInAsPerson(page, await manager());
  await openInConsole(page, customer, order);
  await expect(detail(page).getByRole('button', { name: 'Hold for review' })).toBeVisible();

  await startAction(page, 'Hold for review');
  await expect(dialog(page)).toContainText('The customer sees the category');
  await dialog(page).getByRole('button', { name: 'Hold for review' }).click();
  await expect(dialog(page).getByText('Choose one of the categories')).toBeVisible();
  await dialog(page).getByLabel('Category').selectOption({ label: 'Source of funds' });
  await expect(dialog(page).getByText('Choose one of the categories')).toBeHidden();
  await expect(dialog(page)).toContainText(
    'The customer is told: We need to confirm where the funds come from.',
  );
  await expect(dialog(page).getByLabel('Amount received (BTC)')).toHaveValue('0.05');
  await page.screenshot({ path: testInfo.outputPath('admin-hold-dialog-1280.png') });
  await expectNoSeriousViolations(page);
  await dialog(page).getByRole('button', { name: 'Hold for review' }).click();
  await expect(page.getByText(`Order ${order.number} is on hold (Source of funds).`)).toBeVisible();
  await expect(dialog(page)).toBeHidden();
  await expect(chip(page)).toHaveText('On hold');
  await expect(fact(page, 'Hold category')).toContainText('Source of funds');
  await expect(fact(page, 'Received')).toContainText('0.05 BTC');
  await expect(queueRow(page, order)).toContainText('On hold');
  await expect(queueRow(page, order)).toContainText('Source of funds');
  expect(await orderRow(order)).toMatchObject({
    status: 'on_hold',
    hold_category: 'source_of_funds',
    received_amount: '0.05',
  });

  // On hold: release or refund, nothing else.
  const buttons = detail(page).locator('.staff-orders__action-buttons button');
  await expect(buttons).toHaveText(['Release', 'Refund']);
  await expectNoSeriousViolations(page);

  // The console in Russian and Ukrainian names the side state and its steps.
  await page.goto(`/ru/admin/transactions?order=${order.id}`);
  await hydrated(page);
  await expect(chip(page)).toHaveText('На проверке');
  await expect(buttons).toHaveText(['Снять с проверки', 'Вернуть средства']);
  await expect(fact(page, 'Причина проверки')).toContainText('Происхождение средств');
  await page.goto(`/ua/admin/transactions?order=${order.id}&status=on_hold`);
  await hydrated(page);
  await expect(chip(page)).toHaveText('На перевірці');
  await expect(page.getByRole('link', { name: /^На перевірці \(\d+\)$/ })).toHaveAttribute(
    'aria-current',
    'page',
  );

  await openInConsole(page, customer, order);
  await startAction(page, 'Release');
  await expect(dialog(page)).toContainText('the order goes on to Paid');
  await dialog(page).getByRole('button', { name: 'Release' }).click();
  await expect(page.getByText(`Order ${order.number} is released and paid.`)).toBeVisible();
  await expect(chip(page)).toHaveText('Paid');
  await expect(buttons).toHaveText(['Complete', 'Hold for review']);
  await expect(detail(page)).toContainText('On hold → Paid');
  expect((await orderRow(order)).status).toBe('paid');
});

test('a smaller amount confirmed sends the order to the customer’s choice (underpaid)', async ({
  page,
}, testInfo) => {
  const customer = await newCustomer('underpaid-buyer');
  const order = await btcOrder(customer);
  await staff.supplyAddress(order.id, DEPOSIT_ADDRESS);

  await signInAsPerson(page, await manager());
  await openInConsole(page, customer, order);
  await expect(fact(page, 'Pay by')).toContainText(/left/);

  await startAction(page, 'Confirm payment');
  const amount = dialog(page).getByLabel('Amount received (BTC)');
  await expect(amount).toHaveValue('0.05');
  await expect(dialog(page)).toContainText('The amount matches the order: it goes on to Paid.');
  await amount.fill('0.04x');
  await dialog(page).getByRole('button', { name: 'Confirm payment' }).click();
  await expect(dialog(page).getByText('Enter a positive amount, such as 0.05')).toBeVisible();
  await amount.fill('0.123456789');
  await dialog(page).getByRole('button', { name: 'Confirm payment' }).click();
  await expect(dialog(page).getByText('At most 8 decimals')).toBeVisible();
  await amount.fill('0,04');
  await expect(dialog(page).getByText('At most 8 decimals')).toBeHidden();
  await expect(dialog(page)).toContainText(
    '0.01 BTC less than ordered: the order goes to Customer action needed (underpaid)',
  );
  await page.screenshot({ path: testInfo.outputPath('admin-confirm-underpaid-dialog-1280.png') });
  await dialog(page).getByRole('button', { name: 'Confirm payment' }).click();
  await expect(
    page.getByText(`Order ${order.number} waits for the customer’s choice (Underpaid).`),
  ).toBeVisible();
  await expect(chip(page)).toHaveText('Customer action needed');
  await expect(fact(page, 'Received')).toContainText('0.04 BTC');
  await expect(fact(page, 'Ordered')).toContainText('0.05 BTC');
  await expect(fact(page, 'Difference')).toContainText('−0.01 BTC');
  await expect(fact(page, 'Customer must decide')).toContainText('Underpaid');
  await expect(detail(page)).toContainText('the customer chooses to continue at the current rate');
  await expect(detail(page).locator('.staff-orders__action-buttons')).toHaveCount(0);
  await expect(queueRow(page, order)).toContainText('Customer action needed');
  await expect(queueRow(page, order)).toContainText('Underpaid');
  await page.screenshot({
    path: testInfo.outputPath('admin-order-underpaid-1280.png'),
    fullPage: true,
  });
  await expectNoSeriousViolations(page);
  expect(await orderRow(order)).toMatchObject({
    status: 'needs_user_action',
    received_amount: '0.04',
    action_reason: 'underpaid',
  });
});

test('a payment after the window is recorded as late on the expired order', async ({ page }) => {
  const customer = await newCustomer('expired-buyer');
  const order = await btcOrder(customer);
  await staff.supplyAddress(order.id, DEPOSIT_ADDRESS);
  await setDeadline(order, 'pay_by', new Date(Date.now() - 60_000));
  expect((await runDeadlinesJob()).expired).toContain(order.number);

  await signInAsPerson(page, await manager());
  await openInConsole(page, customer, order);
  await expect(chip(page)).toHaveText('Expired');
  await expect(fact(page, 'Expired')).toBeVisible();
  await expect(detail(page).locator('.staff-orders__action-buttons button')).toHaveText([
    'Record late payment',
    'Hold for review',
  ]);

  await startAction(page, 'Record late payment');
  await expect(dialog(page)).toContainText('(late payment)');
  await dialog(page).getByRole('button', { name: 'Record late payment' }).click();
  await expect(
    page.getByText(`Order ${order.number} waits for the customer’s choice (Late payment).`),
  ).toBeVisible();
  await expect(chip(page)).toHaveText('Customer action needed');
  await expect(fact(page, 'Customer must decide')).toContainText('Late payment');
  expect(await orderRow(order)).toMatchObject({
    status: 'needs_user_action',
    action_reason: 'late_payment',
    received_amount: '0.05',
  });
});

test('a refund the customer asked for is completed with its tx id', async ({ page }) => {
  const customer = await newCustomer('refund-buyer');
  const order = await btcOrder(customer);
  await staff.supplyAddress(order.id, DEPOSIT_ADDRESS);
  await asManager(
    `mutation ($id: uuid!, $amount: numeric!) {
       confirmPayment(transactionId: $id, receivedAmount: $amount) { status }
     }`,
    { id: order.id, amount: '0.04' },
  );
  const chosen = await graphqlData<{ resolvePaymentIssue: { status: string } }>(
    customer.tokens,
    `mutation ($id: uuid!, $address: String!) {
       resolvePaymentIssue(transactionId: $id, choice: "refund", refundAddress: $address) { status }
     }`,
    { id: order.id, address: REFUND_ADDRESS },
  );
  expect(chosen.resolvePaymentIssue.status).toBe('refund_in_progress');

  await signInAsPerson(page, await manager());
  await openInConsole(page, customer, order);
  await expect(chip(page)).toHaveText('Refund in progress');
  await expect(fact(page, 'Refund address')).toContainText(REFUND_ADDRESS);
  await expect(detail(page).locator('.staff-orders__action-buttons button')).toHaveText([
    'Complete refund',
  ]);

  await startAction(page, 'Complete refund');
  await expect(dialog(page)).toContainText(`Send 0.04 BTC back to ${REFUND_ADDRESS} first`);
  await dialog(page).getByRole('button', { name: 'Complete refund' }).click();
  await expect(dialog(page).getByText('The field is required')).toBeVisible();
  await dialog(page)
    .getByLabel('Refund transaction id or bank reference')
    .fill('refund-console-tx-1');
  await dialog(page).getByRole('button', { name: 'Complete refund' }).click();
  await expect(page.getByText(`Order ${order.number} is refunded.`)).toBeVisible();
  await expect(chip(page)).toHaveText('Refunded');
  await expect(fact(page, 'Refund tx id')).toContainText('refund-console-tx-1');
  await expect(detail(page)).toContainText('Nothing left to do: the order is Refunded.');
  await expect(detail(page)).toContainText('Refund in progress → Refunded');
  expect(await orderRow(order)).toMatchObject({
    status: 'refunded',
    refund_tx_id: 'refund-console-tx-1',
  });
});
