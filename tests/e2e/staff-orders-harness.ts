import type { Browser, Page } from '@playwright/test';

import {
  adminTokens,
  graphqlAs,
  graphqlData,
  newManager,
  signInAsPerson,
  type Person,
} from './staff-session.ts';
import { expect, hydrated } from './support.ts';

/*
 * What the staff console's Transactions suites share (issue 7): orders made through the API as
 * the order form sends them, the customer's live order page, the console with one order open,
 * and one manager for every suite (made on first use).
 */

export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
export const BTC_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
export const DEPOSIT_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

export interface Order {
  id: string;
  number: string;
}

/** An order through the API, as the order form sends it, with the customer's e-mail. */
export async function createOrder(
  customer: Person,
  input: { from: string; to: string; amount: string; walletAddress: string },
): Promise<Order> {
  const body = await graphqlAs<{ createExchange: { id: string; number: string } }>(
    customer.tokens,
    `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id number } }`,
    {
      input: {
        ...input,
        side: 'send',
        email: customer.email,
        fullName: 'Olga Orderer',
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

export const btcOrder = (customer: Person, amount = '0.05') =>
  createOrder(customer, { from: 'BTC', to: 'USDTTRC20', amount, walletAddress: TRC20_ADDRESS });

/** The customer's own order page in a browser of its own, marked to prove it never reloads. */
export async function customerPage(browser: Browser, customer: Person, order: Order) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsPerson(page, customer);
  await page.goto(`/transaction/${order.id}`);
  await hydrated(page);
  await page.evaluate('window.__sameDocument = true');
  const status = page.locator('.order-summary .status');
  return {
    page,
    status,
    stillSameDocument: async () =>
      expect(await page.evaluate<boolean>('window.__sameDocument === true')).toBe(true),
    close: () => context.close(),
  };
}

/** The console filtered to one customer's orders, with `order` open. */
export async function openInConsole(page: Page, customer: Person, order: Order): Promise<void> {
  await page.goto(`/admin/transactions?email=${encodeURIComponent(customer.email)}`);
  await hydrated(page);
  await page.getByRole('link', { name: `Open order ${order.number}` }).click();
  await expect(page).toHaveURL(new RegExp(`order=${order.id}`));
  await expect(
    page.getByRole('heading', { level: 2, name: `Order ${order.number}` }),
  ).toBeVisible();
}

/** The open order's panel (a region named by its heading, in any language). */
export const detail = (page: Page) => page.locator('.staff-orders__detail');
export const dialog = (page: Page) => page.getByRole('dialog');

/**
 * Opens an action's confirm dialog from the detail panel. The panel follows the order live, so
 * on a slow machine a click can land on a button that is being replaced (CI once waited 10 s
 * for a dialog that never opened): click again until the dialog is open.
 */
export async function startAction(page: Page, action: string): Promise<void> {
  const button = detail(page).getByRole('button', { name: action });
  await expect(async () => {
    if (!(await dialog(page).isVisible())) await button.click({ timeout: 5_000 });
    await expect(dialog(page)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

export const state: { manager?: Person } = {};
export async function manager(): Promise<Person> {
  state.manager ??= await newManager('orders-manager');
  return state.manager;
}

/** An active EUR bank account labelled `label`, added by the administrator; its id. */
export async function addEurBankAccount(label: string): Promise<string> {
  const { insert_bank_accounts_one: account } = await graphqlData<{
    insert_bank_accounts_one: { id: string };
  }>(
    await adminTokens(),
    `mutation ($object: bank_accounts_insert_input!) {
       insert_bank_accounts_one(object: $object) { id }
     }`,
    {
      object: {
        label,
        beneficiary: 'Exchange Ltd',
        account_number: 'DE89370400440532013000',
        swift_bic: 'COBADEFFXXX',
        bank_address: 'Neue Mainzer Strasse 1, Frankfurt',
        currency_code: 'EUR',
        is_active: true,
      },
    },
    'administrator',
  );
  return account.id;
}
