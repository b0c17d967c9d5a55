import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

import { adminGraphql } from './accounts.ts';
import { expect, test } from './support.ts';
import {
  createMiniappOrder,
  hapticNotifications,
  launchUrl,
  mainButton,
  newTelegramUser,
} from './telegram.ts';
import { operator as staff } from './trust-helpers.ts';

/*
 * The trust features of issue 10 in the Telegram mini-app (docs/decisions/015-order-trust.md),
 * on a phone-sized screen, launched as Telegram launches it: the operator's promise and the
 * queue as live countdowns, the payment window with the anti-phishing phrase, a payment that
 * needs the owner's choice (here a refund to an address typed in the app), and a held payment.
 * Staff act through the engine's API, as the staff console does.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const DEPOSIT_ADDRESS = 'bc1qminiapptrust0e2etestaddress00000000';
/** A valid Bitcoin (bech32) address: the refund goes back on the send currency's network. */
const REFUND_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/**
 * axe on the app as it is: no serious or critical violation. The development stand-ins for
 * Telegram's own main and back buttons (`[data-telegram]`, Telegram's colours) are Telegram's
 * interface, not the app's, and are left out.
 */
async function expectNoSeriousViolationsInApp(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).exclude('[data-telegram]').analyze();
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
    }));
  expect(serious).toEqual([]);
}

/** The order's status chip (in the order's summary). */
const statusChip = (page: Page) => page.locator('.status-chip').first();

test('the operator’s promise and the payment window count down live, next to the phrase', async ({
  page,
}) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createMiniappOrder(page, '0.01');

  // Waiting for the operator: the promise (10 minutes) ticking, and the place in the queue.
  const promise = page.getByRole('timer').filter({ hasText: 'Payment details expected within' });
  await expect(promise).toHaveText(/Payment details expected within (10:00|9:\d\d)/);
  const first = await promise.textContent();
  await expect.poll(() => promise.textContent(), { timeout: 5_000 }).not.toBe(first);
  await expect(
    page.getByText(/^Your order is (next|number \d+) in the operator queue\.$/),
  ).toBeVisible();
  await expect(page.getByText(/Operators are offline now/)).toHaveCount(0);

  // The direction's working hours are closed now: when the operators come back, in UTC+3.
  const localHour = (new Date().getUTCHours() + 3) % 24;
  const opening = localHour < 12 ? '13:00' : '02:00';
  const closing = localHour < 12 ? '14:00' : '03:00';
  const setWindow = (window: Record<string, unknown>) =>
    adminGraphql(
      `mutation ($set: exchange_directions_set_input!) {
         update_exchange_directions(
           where: { from_currency: { _eq: "BTC" }, to_currency: { _eq: "USDTTRC20" } }, _set: $set
         ) { affected_rows }
       }`,
      { set: window },
    );
  await setWindow({
    window_start: opening,
    window_end: closing,
    window_cutoff: null,
    window_utc_offset_minutes: 180,
  });
  try {
    await page.goto(launchUrl({ user, startapp: `order_${id}` }));
    await expect(
      page.getByText(
        `Operators are offline now. Your order will be handled at ${opening} (UTC+3).`,
      ),
    ).toBeVisible();
  } finally {
    await setWindow({
      window_start: null,
      window_end: null,
      window_cutoff: null,
      window_utc_offset_minutes: null,
    });
  }

  // The operator broke the promise (the deadlines job marks it): cancelling costs nothing.
  await adminGraphql(
    `mutation ($id: uuid!, $at: timestamptz!) {
       update_transactions_by_pk(pk_columns: { id: $id }, _set: { requisites_late_at: $at }) { id }
     }`,
    { id, at: new Date().toISOString() },
  );
  await expect(page.getByText(/The operator is late with the payment details/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel at no cost' })).toBeVisible();

  // The details arrive: the payment window starts now, with its own countdown.
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(statusChip(page)).toHaveText('Waiting for payment');
  const payWithin = page.getByRole('timer').filter({ hasText: 'Pay within' });
  await expect(payWithin).toHaveText(/Pay within (30:00|29:\d\d)/);
  const before = await payWithin.textContent();
  await expect.poll(() => payWithin.textContent(), { timeout: 5_000 }).not.toBe(before);
  await expect(page.getByText(/^Pay by .*\d/)).toBeVisible();
  await expect(
    page.getByText(/Your payment window starts only when the details arrive/),
  ).toBeVisible();
  await expect(page.getByText(DEPOSIT_ADDRESS)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel the exchange' })).toBeVisible();

  // No phrase yet: how to set one, in the app's settings (miniapp-account.e2e.ts sets it).
  await expect(page.getByText(/Set an anti-phishing phrase in Settings/)).toBeVisible();
  await page.getByRole('button', { name: 'Set it now' }).click();
  await expect(page).toHaveURL(/\/telegram-app\/settings(\?|$)/);

  // With a phrase, it stands right above the payment details.
  const { portal_users: owners } = await adminGraphql<{ portal_users: Array<{ id: string }> }>(
    'query ($user: bigint!) { portal_users(where: { telegram_id: { _eq: $user } }) { id } }',
    { user },
  );
  await adminGraphql(
    `mutation ($id: uuid!) {
       update_portal_users_by_pk(pk_columns: { id: $id }, _set: { anti_phishing_phrase: "blue otter 42" }) { id }
     }`,
    { id: owners[0]!.id },
  );
  await page.goto(launchUrl({ user, path: `/transaction/${id}` }));
  await expect(page.getByText('Your anti-phishing phrase')).toBeVisible();
  await expect(page.getByText('blue otter 42')).toBeVisible();
  await expect(page.getByText(/Check that your phrase appears here/)).toBeVisible();
  await expect(page.getByRole('timer').filter({ hasText: 'Pay within' })).toBeVisible();
  const phraseBox = await page.locator('.phishing').boundingBox();
  const addressBox = await page.getByText(DEPOSIT_ADDRESS).boundingBox();
  expect(phraseBox!.y).toBeLessThan(addressBox!.y);
  await expectNoSeriousViolationsInApp(page);
  await page.screenshot({ path: test.info().outputPath('miniapp-pay-within.png'), fullPage: true });
});

test('a short payment: the owner asks for a refund to an address in the app', async ({ page }) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createMiniappOrder(page, '0.01');
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(statusChip(page)).toHaveText('Waiting for payment');

  // Half of it arrived: the order waits for the owner's decision.
  await staff.confirmPayment(id, '0.005');
  await expect(statusChip(page)).toHaveText('Your action needed');
  await expect(page.getByText('We need your decision')).toBeVisible();
  await expect(page.getByText('We received 0.005 BTC instead of 0.01 BTC.')).toBeVisible();
  // Continuing is priced with a live quote of what arrived.
  await expect(
    page.getByRole('radio', { name: /Continue at the current rate.*you get about [\d.]+ USDT/ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel the exchange' })).toHaveCount(0);
  // The same figures in Russian are written as Russian writes numbers (a decimal comma).
  await page.goto(launchUrl({ user, path: `/transaction/${id}`, lang: 'ru' }));
  await expect(page.getByText('Мы получили 0,005 BTC вместо 0,01 BTC.')).toBeVisible();
  await page.goto(launchUrl({ user, path: `/transaction/${id}` }));
  await expect(page.getByText('We need your decision')).toBeVisible();

  await page.getByRole('radio', { name: /Get a refund/ }).check({ force: true });
  await expect(
    page.getByText('We send the 0.005 BTC back to you, minus the network fee.'),
  ).toBeVisible();
  // Nothing typed: the spec's message, and an error buzz.
  const buzzes = (await hapticNotifications(page)).length;
  await page.getByRole('button', { name: 'Request the refund' }).click();
  await expect(page.getByText('The field is required')).toBeVisible();
  expect((await hapticNotifications(page)).slice(buzzes)).toContain('error');

  await page.getByRole('textbox', { name: /Refund address \(BTC network\)/ }).fill(REFUND_ADDRESS);
  await page.screenshot({
    path: test.info().outputPath('miniapp-refund-choice.png'),
    fullPage: true,
  });
  await page.getByRole('button', { name: 'Request the refund' }).click();
  await expect(page.getByText(`Send the refund to ${REFUND_ADDRESS}?`)).toBeVisible();
  // Back keeps what was typed; confirm sends it.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByRole('textbox', { name: /Refund address/ })).toHaveValue(REFUND_ADDRESS);
  await page.getByRole('button', { name: 'Request the refund' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();

  await expect(statusChip(page)).toHaveText('Refund in progress');
  await expect(page.getByText(`We are sending 0.005 BTC back to ${REFUND_ADDRESS}.`)).toBeVisible();
  expect(await hapticNotifications(page)).toContain('success');
  const { transactions_by_pk: row } = await adminGraphql<{
    transactions_by_pk: { status: string; refund_address: string };
  }>('query ($id: uuid!) { transactions_by_pk(id: $id) { status refund_address } }', { id });
  expect(row).toEqual({ status: 'refund_in_progress', refund_address: REFUND_ADDRESS });

  // Staff send it back: the refund's transaction id, to copy; the order is over.
  await staff.completeRefund(id, 'refund-tx-miniapp-1');
  await expect(statusChip(page)).toHaveText('Refunded');
  await expect(page.getByText('The refund was sent.')).toBeVisible();
  await expect(page.getByText('refund-tx-miniapp-1')).toBeVisible();
  await expect(mainButton(page)).toHaveText('New exchange');

  await page.goto(launchUrl({ user, path: '/transactions-history' }));
  const historyRow = page.getByRole('listitem').filter({ hasText: '0.01 BTC' });
  await expect(historyRow.getByText('Refunded')).toBeVisible();
});

test('a held payment says why and what to do, then goes on when released', async ({ page }) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createMiniappOrder(page, '0.012');
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(statusChip(page)).toHaveText('Waiting for payment');

  await staff.hold(id, 'source_of_funds');
  await expect(statusChip(page)).toHaveText('On hold');
  await expect(page.getByText('Your payment is on hold')).toBeVisible();
  await expect(page.getByText(/Our compliance team is reviewing the incoming funds/)).toBeVisible();
  await expect(page.getByText('We need to confirm where the funds come from.')).toBeVisible();
  await expect(page.getByText(/with a document showing where the funds come from/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Write to support' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('miniapp-on-hold.png'), fullPage: true });
  expect(await hapticNotifications(page)).toContain('warning');
  await expectNoSeriousViolationsInApp(page);

  // The same in Russian.
  await page.goto(`/ru${launchUrl({ user, path: `/transaction/${id}` })}`);
  await expect(statusChip(page)).toHaveText('Приостановлена');
  await expect(page.getByText('Платёж приостановлен')).toBeVisible();

  await staff.releaseHold(id, 'release');
  await expect(statusChip(page)).toHaveText('Оплачено');
  await page.goto(launchUrl({ user, path: `/transaction/${id}` }));
  await expect(statusChip(page)).toHaveText('Paid');
  await expect(page.getByText(/Payment received/)).toBeVisible();

  // Completed: the receipt is the app's own screen (miniapp-account.e2e.ts downloads its PDF).
  await staff.complete(id, 'payout-tx-trust-1');
  await expect(statusChip(page)).toHaveText('Completed');
  await page.getByRole('button', { name: 'Receipt' }).click();
  await expect(page).toHaveURL(new RegExp(`/telegram-app/transaction/${id}/receipt`));
  await expect(page.getByText('payout-tx-trust-1')).toBeVisible();
});

test('an order whose payment window closed says until when it was open', async ({ page }) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user, lang: 'uk' }));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Обмін');
  const id = await createMiniappOrder(page, '0.011');
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(statusChip(page)).toHaveText('Очікування оплати');

  // The deadlines job's step, past pay_by.
  await adminGraphql(
    `mutation ($id: uuid!) {
       update_transactions_by_pk(pk_columns: { id: $id }, _set: { status: "expired" }) { id }
     }`,
    { id },
  );
  await expect(statusChip(page)).toHaveText('Термін минув');
  await expect(page.getByRole('heading', { name: 'Термін заявки минув' })).toBeVisible();
  await expect(page.getByText(/^Оплата не надійшла до .*\d{4}.*\d:\d\d\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Скасувати обмін' })).toHaveCount(0);
  expect(await hapticNotifications(page)).toContain('warning');
  await page.screenshot({ path: test.info().outputPath('miniapp-expired-ua.png'), fullPage: true });
});
