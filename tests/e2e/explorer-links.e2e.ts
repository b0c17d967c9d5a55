import type { Locator, Page } from '@playwright/test';

import { signInAsAdmin, signInAsPerson } from './staff-session.ts';
import { expect, expectNoSeriousViolations, hydrated, test } from './support.ts';
import {
  createMiniappOrder,
  launchUrl,
  newTelegramUser,
  telegramCalls,
  TRC20_ADDRESS,
} from './telegram.ts';
import { createBtcOrder, linkTokenOf, newCustomer, operator, type Order } from './trust-helpers.ts';

/*
 * Issue 23 (docs/decisions/042-explorer-links-and-payment-uris.md), on the production builds:
 * the deposit QR code is a BIP-21 payment URI with the amount; the deposit address and the
 * payout's tx id link to their block explorers (a new tab, no opener, no referrer) on the
 * customer's order page, the receipt, the staff order detail (with currency icons) and the
 * mini-app's order screen (with icons, opened through Telegram); a tx id no chain could have
 * gets no link, in any of them.
 */

/** A valid bech32 Bitcoin address (BIP-173's example), so it gets a payment URI and a link. */
const DEPOSIT = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
/** A TRON transaction hash: 64 hex digits. */
const PAYOUT_TX = 'a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d';

async function expectExplorerLink(link: Locator, href: string): Promise<void> {
  await expect(link).toHaveAttribute('href', href);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
}

async function paidOut(customerTag: string, txId: string) {
  const customer = await newCustomer(customerTag);
  const order = await createBtcOrder(customer, '0.05');
  await operator.supplyAddress(order.id, DEPOSIT);
  await operator.confirmPayment(order.id);
  await operator.complete(order.id, txId);
  return { customer, order };
}

async function openOrder(page: Page, order: Order, path = `/transaction/${order.id}`) {
  await page.goto(path);
  await hydrated(page);
}

test('the portal’s deposit QR is a BIP-21 URI with the amount, and the address and payout link to explorers', async ({
  page,
}) => {
  const customer = await newCustomer('explorer-portal');
  const order = await createBtcOrder(customer, '0.05');
  await operator.supplyAddress(order.id, DEPOSIT);
  await signInAsPerson(page, customer);
  await openOrder(page, order);

  // The QR code carries the amount for the wallet; the bare address stays beside it to copy.
  const qr = page.getByRole('img', { name: 'Payment QR code: the deposit address, the amount' });
  await expect(qr).toHaveAttribute('data-qr-value', `bitcoin:${DEPOSIT}?amount=0.05`);
  await expect(qr.locator('svg')).toBeVisible();
  await expect(page.getByText('Scan it with your wallet: it fills in the address')).toBeVisible();
  await expect(page.locator('.copy-row__value', { hasText: DEPOSIT })).toBeVisible();
  await expectExplorerLink(
    page.getByRole('link', { name: 'Deposit address: open in explorer (new tab)' }),
    `https://mempool.space/address/${DEPOSIT}`,
  );
  await expectNoSeriousViolations(page);
  await page.screenshot({
    path: test.info().outputPath('explorer-order-waiting-for-payment.png'),
    fullPage: true,
  });

  // Completed: the payout's tx id links to Tronscan (USDT goes out over TRC20).
  await operator.confirmPayment(order.id);
  await operator.complete(order.id, PAYOUT_TX);
  await expect(page.locator('.order-summary .status')).toHaveText('Completed');
  await expectExplorerLink(
    page.getByRole('link', { name: 'Transaction id of the payout: open in explorer (new tab)' }),
    `https://tronscan.org/#/transaction/${PAYOUT_TX}`,
  );
  await page.screenshot({
    path: test.info().outputPath('explorer-order-completed.png'),
    fullPage: true,
  });

  // The receipt links the tx id and the wallet it went to.
  await openOrder(page, order, `/transaction/${order.id}/receipt`);
  const receipt = page.locator('.receipt__list');
  await expectExplorerLink(
    receipt.getByRole('link', { name: PAYOUT_TX }),
    `https://tronscan.org/#/transaction/${PAYOUT_TX}`,
  );
  await expectExplorerLink(
    receipt.getByRole('link', { name: TRC20_ADDRESS }),
    `https://tronscan.org/#/address/${TRC20_ADDRESS}`,
  );

  // The order's secret link (read-only) links the payout too.
  await openOrder(page, order, `/order/${linkTokenOf(order.id)}`);
  await expectExplorerLink(
    page.getByRole('link', { name: 'Transaction id of the payout: open in explorer (new tab)' }),
    `https://tronscan.org/#/transaction/${PAYOUT_TX}`,
  );

  // In Russian, the same link speaks Russian.
  await openOrder(page, order, `/ru/transaction/${order.id}`);
  await expect(
    page.getByRole('link', { name: /: открыть в обозревателе \(новая вкладка\)$/ }),
  ).toHaveAttribute('href', `https://tronscan.org/#/transaction/${PAYOUT_TX}`);
});

test('a tx id no chain could have gets no explorer link', async ({ page }) => {
  const { customer, order } = await paidOut('explorer-bad-tx', 'payout/../../elsewhere?x=1');
  await signInAsPerson(page, customer);
  await openOrder(page, order);
  await expect(
    page.locator('.copy-row__value', { hasText: 'payout/../../elsewhere' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: /open in explorer/ })).toHaveCount(0);
  await openOrder(page, order, `/transaction/${order.id}/receipt`);
  await expect(page.locator('.receipt__list')).toContainText('payout/../../elsewhere?x=1');
  // The wallet it went to is still linked; the tx id is plain text.
  await expect(page.locator('.receipt__list').getByRole('link', { name: /elsewhere/ })).toHaveCount(
    0,
  );
  await expect(page.locator('.receipt__list').getByRole('link')).toHaveText([TRC20_ADDRESS]);
});

test('the staff order detail shows currency icons and links the deposit, payout address and tx id', async ({
  page,
}) => {
  const { customer, order } = await paidOut('explorer-staff', PAYOUT_TX);
  await signInAsAdmin(page);
  await page.goto(`/admin/transactions?email=${encodeURIComponent(customer.email)}`);
  await hydrated(page);
  await page.getByRole('link', { name: `Open order ${order.number}` }).click();
  const detail = page.locator('.staff-orders__detail');
  await expect(
    detail.getByRole('heading', { level: 2, name: `Order ${order.number}` }),
  ).toBeVisible();

  // BTC's logo by what is sent, USDT's with TRON's badge by what is received.
  const icons = detail.locator('.staff-orders__facts .currency-icon');
  await expect(icons).toHaveCount(2);
  await expect(icons.nth(0).locator('img').first()).toHaveAttribute('src', /tokens\/BTC\.svg$/);
  await expect(icons.nth(1).locator('.currency-icon__badge')).toHaveAttribute('src', /tron/);

  await expectExplorerLink(
    detail.getByRole('link', { name: 'Payout tx id: open in explorer (new tab)' }),
    `https://tronscan.org/#/transaction/${PAYOUT_TX}`,
  );
  await expectExplorerLink(
    detail.getByRole('link', { name: 'Payout to: open in explorer (new tab)' }),
    `https://tronscan.org/#/address/${TRC20_ADDRESS}`,
  );
  await expectExplorerLink(
    detail.getByRole('link', { name: 'Deposit address: open in explorer (new tab)' }),
    `https://mempool.space/address/${DEPOSIT}`,
  );
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: test.info().outputPath('explorer-staff-detail.png') });
});

test.describe('mini-app', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the order screen: icons, the payment QR URI, and explorer links opened through Telegram', async ({
    page,
  }) => {
    const user = newTelegramUser();
    await page.goto(launchUrl({ user }));
    const id = await createMiniappOrder(page, '0.01');
    await operator.supplyAddress(id, DEPOSIT);

    const qr = page.locator('.qr');
    await expect(qr).toHaveAttribute('data-qr-value', `bitcoin:${DEPOSIT}?amount=0.01`);
    await expect(qr).toHaveAttribute(
      'aria-label',
      'Payment QR code: the deposit address, the amount and any memo',
    );
    // The send and receive cells carry their currencies' icons.
    await expect(page.locator('.currency-icon')).toHaveCount(2);

    const deposit = page.getByRole('link', { name: 'Deposit address: open in explorer (new tab)' });
    await expectExplorerLink(deposit, `https://mempool.space/address/${DEPOSIT}`);
    await deposit.click();
    await expect
      .poll(async () =>
        (await telegramCalls(page))
          .filter((call) => call.method === 'web_app_open_link')
          .map((call) => (call.params as { url: string }).url),
      )
      .toContain(`https://mempool.space/address/${DEPOSIT}`);

    await operator.confirmPayment(id);
    await operator.complete(id, PAYOUT_TX);
    await expectExplorerLink(
      page.getByRole('link', { name: 'Transaction id of the payout: open in explorer (new tab)' }),
      `https://tronscan.org/#/transaction/${PAYOUT_TX}`,
    );
    await page.screenshot({ path: test.info().outputPath('explorer-miniapp-order.png') });
  });
});
