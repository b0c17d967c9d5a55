import type { Page } from '@playwright/test';
import { parseEther } from 'viem';

import { connectLocalEvm, randomAddress } from '../support/local-evm.ts';

import { graphqlAs, signInAsPerson } from './staff-session.ts';
import { EVM_URL } from './stack.ts';
import { expect, hydrated, test } from './support.ts';
import { BTC_REFUND_ADDRESS, newCustomer, operator, sql } from './trust-helpers.ts';

/*
 * Issue 25 end to end, in Chromium: the stack's chain watcher follows a real local EVM chain
 * (Hardhat's node, started beside the stack: playwright.config.ts, CHAIN_ENDPOINTS in
 * stack.ts). A customer's order waits for ETH at its deposit address; the ETH is sent and mined;
 * the order page shows "Payment seen … 1 of 12 confirmations" by itself, then, at the 12th
 * block, the payment confirmed and the order paid, with no operator action.
 */

const status = (page: Page) => page.locator('.order-summary .status');

async function ethOrder(customerTag: string) {
  const customer = await newCustomer(customerTag);
  const body = await graphqlAs<{ createExchange: { id: string; number: string } }>(
    customer.tokens,
    `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id number } }`,
    {
      input: {
        from: 'ETH',
        to: 'BTC',
        side: 'send',
        amount: '0.05',
        walletAddress: BTC_REFUND_ADDRESS,
        email: customer.email,
        fullName: 'Chain Watch',
        reason: 'Savings',
        agreeTerms: true,
        agreeAml: true,
        idempotencyKey: crypto.randomUUID(),
      },
    },
  );
  if (!body.data) throw new Error(`createExchange: ${JSON.stringify(body.errors)}`);
  const order = body.data.createExchange;
  const address = randomAddress();
  await operator.supplyAddress(order.id, address);
  return { customer, order, address };
}

test('an ETH payment shows its confirmations live, and the order is paid with no operator', async ({
  page,
}) => {
  const chain = await connectLocalEvm(EVM_URL);
  const { customer, order, address } = await ethOrder('chain-watch');
  await signInAsPerson(page, customer);
  await page.goto(`/transaction/${order.id}`);
  await hydrated(page);
  await expect(status(page)).toHaveText('Waiting for payment');
  await expect(page.getByTestId('chain-payments')).toHaveCount(0);

  const hash = await chain.sendEth(address, parseEther('0.05'));
  await chain.mine(1);
  const payments = page.getByTestId('chain-payments');
  // The watcher reads every 0.5 s (its default); the page follows by subscription.
  await expect(payments).toContainText('Payment seen: 0.05 ETH, 1 of 12 confirmations', {
    timeout: 20_000,
  });
  await expect(payments.getByRole('link', { name: 'View the transaction' })).toHaveAttribute(
    'href',
    `https://etherscan.io/tx/${hash}`,
  );
  await expect(payments.getByRole('progressbar')).toHaveAttribute('value', '1');

  await chain.mine(11);
  await expect(status(page)).toHaveText('Paid', { timeout: 30_000 });
  await expect(payments).toContainText('Payment confirmed: 0.05 ETH, 12 of 12 confirmations');
  const { rows } = await sql(
    `SELECT source, changed_by FROM transaction_status_history
      WHERE transaction_id = $1 AND to_status = 'paid'`,
    [order.id],
  );
  expect(rows).toEqual([{ source: 'watcher:ERC20', changed_by: null }]);

  // The same in Russian and Ukrainian.
  await page.goto(`/ru/transaction/${order.id}`);
  await hydrated(page);
  await expect(page.getByTestId('chain-payments')).toContainText(
    'Платёж подтверждён: 0,05 ETH, 12 из 12 подтверждений',
  );
  await page.goto(`/ua/transaction/${order.id}`);
  await hydrated(page);
  await expect(page.getByTestId('chain-payments')).toContainText(
    'Платіж підтверджено: 0,05 ETH, 12 з 12 підтверджень',
  );
});
