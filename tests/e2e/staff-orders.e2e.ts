import {
  addEurBankAccount,
  BTC_ADDRESS,
  btcOrder,
  createOrder,
  customerPage,
  DEPOSIT_ADDRESS,
  detail,
  dialog,
  manager,
  openInConsole,
  startAction,
  TRC20_ADDRESS,
} from './staff-orders-harness.ts';
import { graphqlAs, newCustomer, signInAsPerson } from './staff-session.ts';
import { staff } from './staff.ts';
import { expect, hydrated, test } from './support.ts';

/*
 * The staff console's Transactions page (issue 7): a manager runs orders from "waiting for
 * operator" to completed (crypto and fiat) or canceled entirely in the console while the
 * customer's own page follows live in a second browser; the status tabs count and the filters
 * narrow the queue. Bonus withdrawals: staff-orders-withdrawals.e2e.ts; axe, small screens and
 * languages: staff-orders-page.e2e.ts.
 */
test.describe.configure({ mode: 'serial' });

test('a manager runs a crypto order to completed while the customer watches live', async ({
  page,
  browser,
}) => {
  const operator = await manager();
  const customer = await newCustomer('crypto-buyer');
  const order = await btcOrder(customer);
  const watcher = await customerPage(browser, customer, order);
  await expect(watcher.status).toHaveText('Waiting for operator');

  await signInAsPerson(page, operator);
  await openInConsole(page, customer, order);
  const panel = detail(page);
  await expect(panel).toContainText(customer.email);
  await expect(panel).toContainText('0.05 BTC');
  await expect(panel.getByRole('button', { name: 'Confirm payment' })).toHaveCount(0);

  // Give a deposit address: the dialog says what happens, an empty field is refused first.
  await startAction(page, 'Give payment details');
  await expect(dialog(page)).toContainText('send 0.05 BTC to this address');
  await dialog(page).getByRole('button', { name: 'Give payment details' }).click();
  await expect(dialog(page).getByText('The field is required')).toBeVisible();
  await dialog(page).getByLabel('Deposit address (BTC)').fill(DEPOSIT_ADDRESS);
  await dialog(page).getByRole('button', { name: 'Give payment details' }).click();
  await expect(page.getByText(`Order ${order.number} is waiting for payment.`)).toBeVisible();
  await expect(dialog(page)).toBeHidden();
  await expect(panel.locator('.status').first()).toHaveText('Waiting for payment');
  await expect(panel).toContainText(DEPOSIT_ADDRESS);
  await expect(watcher.status).toHaveText('Waiting for payment');
  await expect(watcher.page.getByText(DEPOSIT_ADDRESS)).toBeVisible();

  await startAction(page, 'Confirm payment');
  await expect(dialog(page)).toContainText('Confirm only when 0.05 BTC has arrived');
  await dialog(page).getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.getByText(`Order ${order.number} is marked paid.`)).toBeVisible();
  await expect(watcher.status).toHaveText('Paid');
  await expect(watcher.page.getByText(/Payment received/)).toBeVisible();

  await startAction(page, 'Complete');
  await expect(dialog(page)).toContainText(TRC20_ADDRESS);
  // Its own per order: a retried run must not be refused as a duplicate payout (decision 044).
  const payoutTx = `payout-console-crypto-${order.number}`;
  await dialog(page).getByLabel('Payout transaction id').fill(payoutTx);
  await dialog(page).getByRole('button', { name: 'Complete' }).click();
  await expect(page.getByText(`Order ${order.number} is completed.`)).toBeVisible();
  await expect(panel.locator('.status').first()).toHaveText('Completed');
  await expect(panel).toContainText('Nothing left to do');
  await expect(watcher.status).toHaveText('Completed');
  await expect(watcher.page.getByText('This transfer was successfully completed.')).toBeVisible();
  await expect(watcher.page.getByText(payoutTx)).toBeVisible();
  await watcher.stillSameDocument();

  // The history says who moved the order, and the queue row follows.
  const history = panel.getByRole('list').filter({ hasText: 'Paid → Completed' });
  await expect(history.getByRole('listitem').last()).toContainText('Paid → Completed');
  await expect(history.getByRole('listitem').last()).toContainText(operator.email);
  await expect(history).toContainText('Waiting for operator → Waiting for payment');
  await expect(
    page.getByRole('row').filter({ hasText: order.number }).locator('.status'),
  ).toHaveText('Completed');
  await watcher.close();
});

test('a manager runs a fiat order, giving one of the active bank accounts', async ({
  page,
  browser,
}) => {
  const label = `EUR e2e ${Date.now().toString(36)}`;
  await addEurBankAccount(label);

  const customer = await newCustomer('fiat-buyer');
  const order = await createOrder(customer, {
    from: 'EUR',
    to: 'BTC',
    amount: '150',
    walletAddress: BTC_ADDRESS,
  });
  const watcher = await customerPage(browser, customer, order);
  await expect(watcher.status).toHaveText('Waiting for operator');

  await signInAsPerson(page, await manager());
  await openInConsole(page, customer, order);
  await startAction(page, 'Give payment details');
  await expect(dialog(page)).toContainText('pay 150 EUR to this account');
  const account = dialog(page).getByLabel('Bank account in EUR');
  await account.selectOption({ label: `${label} · DE89370400440532013000` });
  await dialog(page).getByRole('button', { name: 'Give payment details' }).click();
  await expect(page.getByText(`Order ${order.number} is waiting for payment.`)).toBeVisible();
  const panel = detail(page);
  await expect(panel).toContainText(label);
  await expect(panel).toContainText(`EX-${order.number}`);
  await expect(watcher.status).toHaveText('Waiting for payment');
  await expect(watcher.page.getByText('Exchange Ltd')).toBeVisible();
  await expect(watcher.page.getByText(`EX-${order.number}`)).toBeVisible();

  await startAction(page, 'Confirm payment');
  await dialog(page).getByRole('button', { name: 'Confirm payment' }).click();
  await expect(watcher.status).toHaveText('Paid');

  await startAction(page, 'Complete');
  const payoutTx = `payout-console-fiat-${order.number}`;
  await dialog(page).getByLabel('Payout transaction id').fill(payoutTx);
  await dialog(page).getByRole('button', { name: 'Complete' }).click();
  await expect(watcher.status).toHaveText('Completed');
  await expect(watcher.page.getByText(payoutTx)).toBeVisible();
  await watcher.stillSameDocument();
  await watcher.close();
});

test('a manager cancels an order with a reason; a step overtaken meanwhile is explained', async ({
  page,
  browser,
}) => {
  const customer = await newCustomer('cancel-buyer');
  const order = await btcOrder(customer);
  const watcher = await customerPage(browser, customer, order);

  await signInAsPerson(page, await manager());
  await openInConsole(page, customer, order);
  await startAction(page, 'Cancel the order');
  await expect(dialog(page)).toContainText('This cannot be undone');
  await dialog(page).getByRole('button', { name: 'Cancel the order' }).click();
  await expect(dialog(page).getByText('The field is required')).toBeVisible();
  await dialog(page).getByLabel('Reason').fill('The sending wallet is on a sanctions list');
  await dialog(page).getByRole('button', { name: 'Cancel the order' }).click();
  await expect(page.getByText(`Order ${order.number} is canceled.`)).toBeVisible();
  const panel = detail(page);
  await expect(panel).toContainText('The sending wallet is on a sanctions list');
  await expect(panel).toContainText('staff');
  await expect(watcher.status).toHaveText('Canceled');
  await expect(
    watcher.page.getByText('Reason: The sending wallet is on a sanctions list'),
  ).toBeVisible();
  await watcher.stillSameDocument();
  await watcher.close();

  // Another order is given requisites elsewhere while this operator's dialog is open.
  const raced = await btcOrder(customer);
  await openInConsole(page, customer, raced);
  await startAction(page, 'Give payment details');
  await dialog(page).getByLabel('Deposit address (BTC)').fill(DEPOSIT_ADDRESS);
  await staff.supplyAddress(raced.id, DEPOSIT_ADDRESS);
  await dialog(page).getByRole('button', { name: 'Give payment details' }).click();
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'The order has moved on meanwhile (it is Waiting for payment now). Nothing was changed.',
  );
  await dialog(page).getByRole('button', { name: 'Back' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(detail(page).getByRole('button', { name: 'Confirm payment' })).toBeVisible();
});

test('status tabs count the orders, and the filters narrow the queue in the address', async ({
  page,
}) => {
  const customer = await newCustomer('filter-buyer');
  const first = await btcOrder(customer, '0.01');
  const second = await btcOrder(customer, '0.02');
  const third = await btcOrder(customer, '0.03');
  const canceled = await graphqlAs(
    customer.tokens,
    'mutation ($id: uuid!) { cancelExchange(transactionId: $id) { status } }',
    { id: second.id },
  );
  expect(canceled.errors).toBeUndefined();
  await staff.supplyAddress(third.id, DEPOSIT_ADDRESS);

  await signInAsPerson(page, await manager());
  await page.goto('/admin/transactions');
  await hydrated(page);
  const tabs = page.getByRole('navigation', { name: 'Orders by status' });
  await expect(tabs.getByRole('link', { name: /^All \(\d+\)$/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows.first()).toBeVisible();

  // The e-mail filter: the address holds it, the queue and the tabs' counts follow it.
  await page.getByLabel('E-mail contains').fill(customer.email.toUpperCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]email=/);
  await expect(rows).toHaveCount(3);
  await expect(tabs.getByRole('link', { name: 'All (3)' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Waiting for operator (1)' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Waiting for payment (1)' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Canceled (1)' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Completed (0)' })).toBeVisible();

  await tabs.getByRole('link', { name: 'Canceled (1)' }).click();
  await expect(page).toHaveURL(/status=canceled/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(second.number);

  // Live: the customer cancels another order; the counts move without a reload.
  await graphqlAs(
    customer.tokens,
    'mutation ($id: uuid!) { cancelExchange(transactionId: $id) { status } }',
    { id: first.id },
  );
  await expect(tabs.getByRole('link', { name: 'Canceled (2)' })).toBeVisible();
  await expect(rows).toHaveCount(2);

  // Back restores the previous filters.
  await page.goBack();
  await expect(page).not.toHaveURL(/status=/);
  await expect(rows).toHaveCount(3);
  await expect(page.getByLabel('E-mail contains')).toHaveValue(customer.email.toUpperCase());

  // The number: exactly one order.
  await page.getByLabel('Order number').fill(third.number);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`number=${third.number}`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Waiting for payment');

  await page.getByLabel('Order number').fill('12x');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Digits only')).toBeVisible();

  // Nothing matches: an empty state; Reset clears every filter.
  await page.goto(`/admin/transactions?email=${encodeURIComponent(customer.email)}&status=paid`);
  await hydrated(page);
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'Reset filters' }).click();
  await expect(page).toHaveURL(/\/admin\/transactions$/);
  await expect(rows.first()).toBeVisible();

  // Sort by number, lowest first, across the whole queue.
  await page.getByLabel('Sort').selectOption('number-asc');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/sort=number-asc/);
  // The address changes before the re-sorted queue arrives: wait for the rows, not the URL
  // (reading the first row at once raced with the answer and saw the newest order).
  await expect
    .poll(async () =>
      Number(
        await rows
          .first()
          .getByRole('link', { name: /^Open order / })
          .textContent(),
      ),
    )
    .toBeLessThanOrEqual(Number(first.number));
});
