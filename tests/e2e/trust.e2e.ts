import { readFileSync } from 'node:fs';

import type { Browser, Locator, Page } from '@playwright/test';

import { formatDecimal } from '@app/shared/i18n';

import { signInAsPerson } from './staff-session.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';
import {
  alteredToken,
  BTC_REFUND_ADDRESS,
  createBtcOrder,
  linkTokenOf,
  newCustomer,
  operator,
  runDeadlines,
  sql,
  TRC20_ADDRESS,
  type Order,
  type Person,
} from './trust-helpers.ts';

/*
 * Issue 10 on the web portal (docs/decisions/015-order-trust.md), in Chromium: the operator's
 * promise and the payment window as live countdowns with the anti-phishing phrase above the
 * requisites; expiry and late requisites by the deadlines job; a hold and its release; an
 * underpaid order refunded and an overpaid one continued at the current rate, both chosen in
 * the page; the secret order link, read-only; the receipt; and the public requisites check.
 * Staff act through the engine's API, the clock moves by SQL on the stack's database.
 */

const PHRASE = 'blue heron 42';

/** A deposit address of this run only (the service checks its length, not its network). */
const depositAddress = () =>
  `bc1qe2etrust${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

const status = (page: Page) => page.locator('.order-summary .status');

/** The customer's order page, signed in, hydrated. */
async function openOrder(page: Page, customer: Person, order: Order): Promise<void> {
  await signInAsPerson(page, customer);
  await page.goto(`/transaction/${order.id}`);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Exchange order ${order.number}`,
  );
}

/** An order of a new customer, with requisites given, open in the customer's page. */
async function awaitingPayment(page: Page, tag: string, amount = '0.05') {
  const customer = await newCustomer(tag);
  const order = await createBtcOrder(customer, amount);
  await openOrder(page, customer, order);
  const address = depositAddress();
  await operator.supplyAddress(order.id, address);
  await expect(status(page)).toHaveText('Waiting for payment');
  return { customer, order, address };
}

test('the operator’s promise and the payment window count down; the phrase sits above the requisites', async ({
  page,
}) => {
  const customer = await newCustomer('trust-countdown');
  await signInAsPerson(page, customer);

  // The phrase is set in Settings first, through the form (with its rules).
  await page.goto('/settings');
  await hydrated(page);
  const phrase = page.getByLabel('Phrase', { exact: true });
  await phrase.fill('abc');
  await page.getByRole('button', { name: 'Save the phrase' }).click();
  await expect(page.getByText('At least 4 characters')).toBeVisible();
  await phrase.fill(`  ${PHRASE}  `);
  await page.getByRole('button', { name: 'Save the phrase' }).click();
  await expect(page.getByText('The anti-phishing phrase is saved.')).toBeVisible();
  await expect(phrase).toHaveValue(PHRASE);

  // The order form shows the limits and offers a refund address up front.
  await page.goto('/create-transaction/btc-to-usdttrc20?side=send&amount=0.05');
  await hydrated(page);
  await expect(page.getByLabel('You get')).toHaveValue(/^\d+(\.\d+)?$/);
  await expect(page.getByText(/^Min: [\d.]+ BTC · Max: [\d.]+ BTC$/)).toBeVisible();
  await expect(page.getByText(/payment details are e-mailed/i)).toHaveCount(0);
  await page.getByLabel('E-mail').fill(customer.email);
  await page.getByLabel('Full name').fill('Tanya Trust');
  await page.getByLabel(/Wallet address/).fill(TRC20_ADDRESS);
  await page.getByLabel('Refund address (optional)').fill(BTC_REFUND_ADDRESS);
  await page.getByLabel('Reason for the exchange').fill('Savings');
  await page.getByLabel(/exchange terms and rules/).check();
  await page.getByLabel(/AML\/CTF and KYC policies/).check();
  await page.getByRole('button', { name: 'Create the exchange' }).click();
  await expect(page).toHaveURL(/\/transaction\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  const [row] = (
    await sql('SELECT refund_address, number::text FROM transactions WHERE id = $1', [id])
  ).rows as Array<{ refund_address: string; number: string }>;
  expect(row?.refund_address).toBe(BTC_REFUND_ADDRESS);

  // Waiting for the operator: a countdown to the promise, ticking, and the place in the queue.
  await expect(status(page)).toHaveText('Waiting for operator');
  const promise = page.getByRole('timer');
  await expect(promise).toContainText('Payment details expected within');
  const first = await promise.textContent();
  await expect.poll(() => promise.textContent(), { timeout: 5_000 }).not.toBe(first);
  await expect(
    page.getByText(/Your order is (next|number \d+) in the operator queue\./),
  ).toBeVisible();
  await expectNoSeriousViolations(page);

  // Requisites given: the payment window counts down, the phrase is above the address.
  const address = depositAddress();
  await operator.supplyAddress(id, address);
  await expect(status(page)).toHaveText('Waiting for payment');
  await expect(page.getByRole('timer')).toContainText(/Pay within \d+:\d{2}/);
  await expect(page.getByText(/^Pay by /)).toBeVisible();
  await expect(page.getByText(/payment window starts only when the details arrive/)).toBeVisible();
  await expect(page.getByText('Your anti-phishing phrase')).toBeVisible();
  const shown = page.getByTestId('anti-phishing-phrase');
  await expect(shown).toHaveText(PHRASE);
  const addressRow = page.locator('.copy-row__value', { hasText: address });
  await expect(addressRow).toBeVisible();
  const phraseBox = await shown.boundingBox();
  const addressBox = await addressRow.boundingBox();
  expect(phraseBox!.y).toBeLessThan(addressBox!.y);
  await expect(
    page.getByRole('link', { name: 'Check that these details are ours' }),
  ).toHaveAttribute('href', `/check-requisites?value=${encodeURIComponent(address)}`);
  await expectNoSeriousViolations(page);
  await page.screenshot({
    path: test.info().outputPath('trust-waiting-for-payment.png'),
    fullPage: true,
  });
});

test('without a phrase the page asks for one, linking to Settings', async ({ page }) => {
  await awaitingPayment(page, 'trust-no-phrase');
  await expect(page.getByText(/Set an anti-phishing phrase in Settings/)).toBeVisible();
  await page.getByRole('link', { name: 'Set it now' }).click();
  await expect(page).toHaveURL(/\/settings#anti-phishing$/);
});

test('an unpaid order expires by the clock, live', async ({ page }) => {
  const { order } = await awaitingPayment(page, 'trust-expiry');
  await sql("UPDATE transactions SET pay_by = now() - interval '1 second' WHERE id = $1", [
    order.id,
  ]);
  const report = await runDeadlines();
  expect(report.expired).toContain(order.number);
  await expect(status(page)).toHaveText('Expired');
  await expect(page.getByRole('heading', { name: 'The order expired' })).toBeVisible();
  await expect(page.getByText(/No payment arrived before/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel the exchange' })).toHaveCount(0);
});

test('late requisites: the late notice, and the order canceled at no cost', async ({ page }) => {
  const customer = await newCustomer('trust-late');
  const order = await createBtcOrder(customer);
  await openOrder(page, customer, order);
  await expect(page.getByRole('timer')).toContainText('Payment details expected within');
  await sql(
    "UPDATE transactions SET requisites_due_at = now() - interval '1 second' WHERE id = $1",
    [order.id],
  );
  const report = await runDeadlines();
  expect(report.flaggedLate).toContain(order.number);
  await expect(page.getByText(/The operator is late with the payment details/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel at no cost' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel the exchange' }).click();
  await expect(status(page)).toHaveText('Canceled');
  await expect(page.getByText(/The order was canceled/)).toBeVisible();
});

test('a held payment explains itself, then is released to paid', async ({ page }) => {
  const { order } = await awaitingPayment(page, 'trust-hold');
  await operator.hold(order.id, 'source_of_funds');
  await expect(status(page)).toHaveText('On hold');
  await expect(page.getByRole('heading', { name: 'Your payment is on hold' })).toBeVisible();
  await expect(page.getByText('We need to confirm where the funds come from.')).toBeVisible();
  await expect(page.getByText(/document showing where the funds come from/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Write to support' })).toHaveAttribute(
    'href',
    `/contact?orderId=${order.number}`,
  );
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: test.info().outputPath('trust-on-hold.png'), fullPage: true });
  await operator.releaseHold(order.id, 'release');
  await expect(status(page)).toHaveText('Paid');
  await expect(page.getByText(/Payment received/)).toBeVisible();
});

test('underpaid: the owner asks for a refund in the page, staff send it', async ({ page }) => {
  const { order } = await awaitingPayment(page, 'trust-underpaid');
  await operator.confirmPayment(order.id, '0.04');
  await expect(status(page)).toHaveText('Your action needed');
  await expect(page.getByText('We received 0.04 BTC instead of 0.05 BTC.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue at the current rate' })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: test.info().outputPath('trust-needs-action.png'), fullPage: true });

  const refund = page.getByLabel('Refund address (BTC network)');
  await page.getByRole('button', { name: 'Request the refund' }).click();
  await expect(page.getByText('The field is required')).toBeVisible();
  await refund.fill('short');
  await page.getByRole('button', { name: 'Request the refund' }).click();
  await expect(page.getByText('Invalid wallet address for this network')).toBeVisible();
  await refund.fill(BTC_REFUND_ADDRESS);
  await page.getByRole('button', { name: 'Request the refund' }).click();
  await expect(page.getByText(`Send the refund to ${BTC_REFUND_ADDRESS}?`)).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();

  await expect(status(page)).toHaveText('Refund in progress');
  await expect(
    page.getByText(`We are sending 0.04 BTC back to ${BTC_REFUND_ADDRESS}.`),
  ).toBeVisible();
  await operator.completeRefund(order.id, 'refund-tx-e2e-1');
  await expect(status(page)).toHaveText('Refunded');
  await expect(page.getByText('The refund was sent.')).toBeVisible();
  await expect(page.locator('.copy-row__value', { hasText: 'refund-tx-e2e-1' })).toBeVisible();
});

test('overpaid: the owner continues at the current rate and is paid the settled amount', async ({
  page,
}) => {
  const { order } = await awaitingPayment(page, 'trust-overpaid');
  await operator.confirmPayment(order.id, '0.06');
  await expect(status(page)).toHaveText('Your action needed');
  await expect(page.getByText('We received 0.06 BTC instead of 0.05 BTC.')).toBeVisible();
  // The estimate comes from the public quote of what arrived.
  await expect(page.getByText(/you get about [\d.,]+ USDT \(TRC20\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Continue at the current rate' }).click();
  await expect(page.getByText('Exchange 0.06 BTC at the current rate?')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();

  await expect(status(page)).toHaveText('Paid');
  const [row] = (
    await sql('SELECT settled_receive_amount::text AS settled FROM transactions WHERE id = $1', [
      order.id,
    ])
  ).rows as Array<{ settled: string }>;
  // As the page writes it in English (grouped thousands, trailing zeros dropped).
  const settled = formatDecimal(row!.settled, 'en');
  await expect(
    page.getByText(
      new RegExp(`^Exchanged at the current rate: you get ${settled.replace('.', '\\.')} USDT`),
    ),
  ).toBeVisible();
  await expect(page.locator('.order-summary')).toContainText(`${settled} USDT (TRC20)`);
});

/** A page of a browser with nobody signed in. */
async function visitorPage(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors, close: () => context.close() };
}

test('the secret link opens its own order read-only, another link another order, an altered one nothing', async ({
  page,
  browser,
}) => {
  const mine = await awaitingPayment(page, 'trust-link');
  const other = await createBtcOrder(await newCustomer('trust-link-other'));
  const visitor = await visitorPage(browser);
  try {
    const response = await visitor.page.goto(`/order/${linkTokenOf(mine.order.id)}`);
    expect(response?.status()).toBe(200);
    await hydrated(visitor.page);
    await expect(visitor.page.getByRole('heading', { level: 1 })).toHaveText(
      `Order ${mine.order.number}`,
    );
    await expect(visitor.page).toHaveTitle(`Order ${mine.order.number}`);
    await expect(visitor.page.getByText(/opened this order from its secret link/)).toBeVisible();
    await expect(visitor.page.locator('.order-summary .status')).toHaveText('Waiting for payment');
    await expect(visitor.page.getByRole('timer')).toContainText('Pay within');
    await expect(visitor.page.getByRole('link', { name: 'Sign in to act on it' })).toBeVisible();
    // No payment details, anywhere in the page.
    expect(await visitor.page.content()).not.toContain(mine.address);
    await expect(visitor.page.getByText('Deposit address')).toHaveCount(0);
    await expectNoSeriousViolations(visitor.page);
    await visitor.page.screenshot({
      path: test.info().outputPath('trust-order-link.png'),
      fullPage: true,
    });

    // The page follows the order (every 15 s).
    await operator.confirmPayment(mine.order.id);
    await expect(visitor.page.locator('.order-summary .status')).toHaveText('Paid', {
      timeout: 25_000,
    });

    await visitor.page.goto(`/order/${linkTokenOf(other.id)}`);
    await expect(visitor.page.getByRole('heading', { level: 1 })).toHaveText(
      `Order ${other.number}`,
    );
    await expect(visitor.page.locator('.order-summary .status')).toHaveText('Waiting for operator');
    await expect(visitor.page.getByText(new RegExp(mine.order.number))).toHaveCount(0);

    const altered = await visitor.page.goto(`/order/${alteredToken(linkTokenOf(other.id))}`);
    expect(altered?.status()).toBe(404);
    await expect(
      visitor.page.getByText(
        'This link is not valid. Check that you copied it whole from the e-mail.',
      ),
    ).toBeVisible();
    await expect(visitor.page.getByText(`Order ${other.number}`)).toHaveCount(0);
    expect(visitor.errors.filter((text) => !/status of 404/.test(text))).toEqual([]);
  } finally {
    await visitor.close();
  }
});

test('a completed order’s receipt shows the payout tx id, and its PDF downloads', async ({
  page,
  browser,
}) => {
  const { order } = await awaitingPayment(page, 'trust-receipt');
  await operator.confirmPayment(order.id);
  await operator.complete(order.id, 'payout-tx-e2e-receipt');
  await expect(status(page)).toHaveText('Completed');
  await page.getByRole('link', { name: 'Receipt' }).click();
  await expect(page).toHaveURL(new RegExp(`/transaction/${order.id}/receipt$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  const receipt = page.locator('.receipt__list');
  await expect(receipt).toContainText(order.number);
  await expect(receipt).toContainText('0.05 BTC');
  await expect(receipt).toContainText('payout-tx-e2e-receipt');
  await expect(receipt).toContainText(TRC20_ADDRESS);
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Print' })).toBeEnabled();
  await expectNoSeriousViolations(page);

  await page.screenshot({ path: test.info().outputPath('trust-receipt.png'), fullPage: true });

  // The PDF, from the owner's page and from the secret link.
  await expectPdfDownload(page, page.getByRole('button', { name: 'Download PDF' }));
  const visitor = await visitorPage(browser);
  try {
    await visitor.page.goto(`/order/${linkTokenOf(order.id)}`);
    await hydrated(visitor.page);
    await expect(visitor.page.locator('.order-summary .status')).toHaveText('Completed');
    await expect(visitor.page.getByText('payout-tx-e2e-receipt')).toBeVisible();
    await expectPdfDownload(
      visitor.page,
      visitor.page.getByRole('button', { name: 'Download PDF' }),
    );
    expect(visitor.errors).toEqual([]);
  } finally {
    await visitor.close();
  }
});

/** Clicks `button` and expects a PDF file to be saved. */
async function expectPdfDownload(page: Page, button: Locator): Promise<void> {
  const download = page.waitForEvent('download');
  await button.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const saved = await file.path();
  expect(readFileSync(saved).subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

test('the requisites check: active for an order’s deposit address, unknown for another', async ({
  page,
}) => {
  const { address } = await awaitingPayment(page, 'trust-check');
  await page.getByRole('link', { name: 'Check that these details are ours' }).click();
  await expect(page).toHaveURL(/\/check-requisites\?value=/);
  await hydrated(page);
  await expect(page).toHaveTitle('Check payment details');
  await expect(page.getByLabel('Address, IBAN or account number')).toHaveValue(address);
  await expect(
    page.getByText('Yes: this is ours and in use now (BTC, deposit address).'),
  ).toBeVisible();
  await expectNoSeriousViolations(page);

  const field = page.getByLabel('Address, IBAN or account number');
  await field.fill('');
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByText('The field is required')).toBeVisible();
  await field.fill(`bc1qnotours${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await expect(page.getByText(/This is not one of ours\. Do not pay to it/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('trust-check.png'), fullPage: true });

  // The footer links to it from every page.
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Check payment details' }).click();
  await expect(page).toHaveURL(/\/check-requisites$/);
  await page.goto('/ru/check-requisites');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Этот адрес или счёт действительно наш?',
  );
  await page.goto('/ua/check-requisites');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Ця адреса чи рахунок справді наші?',
  );
});
