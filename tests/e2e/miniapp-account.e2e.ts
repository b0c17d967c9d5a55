import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import type { Page } from '@playwright/test';

import { receiptDownloadToken } from '@app/actions/receipts/download-token';

import { adminGraphql } from './accounts.ts';
import { WEB_URL } from './stack.ts';
import { expect, test } from './support.ts';
import {
  accountsOfTelegramUser,
  backButton,
  createMiniappOrder,
  launchUrl,
  newTelegramUser,
  telegramCalls,
  TRC20_ADDRESS,
} from './telegram.ts';
import { DEV_ORDER_LINK_SECRET, operator as staff } from './trust-helpers.ts';

/*
 * What a Telegram-only account needs, inside the mini-app (issue 22, decision 036): an account
 * made by Telegram sign-in cannot sign in to the portal, so the anti-phishing phrase is set in
 * the app's settings and a completed order's receipt is shown in the app, its PDF handed to
 * Telegram's own download (web_app_request_file_download) at a 10-minute address the portal
 * serves without anyone's session.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const DEPOSIT_ADDRESS = 'bc1qminiappaccount0e2etestaddress000000';

/** The one account of Telegram user `user`: made by Telegram sign-in, with no proven e-mail. */
async function telegramOnlyAccount(user: number): Promise<string> {
  const [account] = await accountsOfTelegramUser(user);
  const { portal_users_by_pk: row } = await adminGraphql<{
    portal_users_by_pk: { is_verified_email: boolean; password_hash: string | null };
  }>('query ($id: uuid!) { portal_users_by_pk(id: $id) { is_verified_email password_hash } }', {
    id: account!.id,
  });
  expect(row).toEqual({ is_verified_email: false, password_hash: null });
  return account!.id;
}

const phraseOf = async (id: string) =>
  (
    await adminGraphql<{ portal_users_by_pk: { anti_phishing_phrase: string | null } }>(
      'query ($id: uuid!) { portal_users_by_pk(id: $id) { anti_phishing_phrase } }',
      { id },
    )
  ).portal_users_by_pk.anti_phishing_phrase;

/**
 * The text of a PDF by poppler's pdftotext; without it (undefined), the caller reads the raw
 * bytes, where pdfkit writes the document's title (`Receipt <number>`) as a literal string.
 */
function pdfText(path: string): string | undefined {
  try {
    return execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const portalLinks = async (page: Page) =>
  (await telegramCalls(page)).filter((call) => call.method === 'web_app_open_link');

test('a Telegram-only account sets its anti-phishing phrase in the app and sees it by the payment details', async ({
  page,
}) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createMiniappOrder(page, '0.01');
  const account = await telegramOnlyAccount(user);
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(page.getByText(DEPOSIT_ADDRESS)).toBeVisible();

  // No phrase yet: "Set it now" opens the app's settings, not a portal page behind a sign-in.
  await page.getByRole('button', { name: 'Set it now' }).click();
  await expect(page).toHaveURL(/\/telegram-app\/settings(\?|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  await expect(page.locator('.phishing__cell')).toContainText('Not set yet');
  expect(await portalLinks(page)).toEqual([]);

  // The portal's rules: too short is refused, and nothing is saved.
  const field = page.getByRole('textbox', { name: 'Phrase', exact: true });
  await field.fill('abc');
  await page.getByRole('button', { name: 'Save the phrase' }).click();
  await expect(page.getByText('At least 4 characters')).toBeVisible();
  expect(await phraseOf(account)).toBeNull();

  await field.fill('  blue otter 42  ');
  await page.getByRole('button', { name: 'Save the phrase' }).click();
  await expect(
    page.getByRole('status').getByText('The anti-phishing phrase is saved.'),
  ).toBeVisible();
  await expect(page.locator('.phishing__phrase')).toHaveText('blue otter 42');
  expect(await phraseOf(account)).toBe('blue otter 42');
  await page.screenshot({ path: test.info().outputPath('miniapp-settings.png'), fullPage: true });

  // Back to the order: the phrase stands right above the payment details.
  await backButton(page).click();
  await expect(page).toHaveURL(new RegExp(`/telegram-app/transaction/${id}`));
  await expect(page.getByText('Your anti-phishing phrase')).toBeVisible();
  await expect(page.locator('.phishing__phrase')).toHaveText('blue otter 42');
  const phraseBox = await page.locator('.phishing').boundingBox();
  const addressBox = await page.getByText(DEPOSIT_ADDRESS).boundingBox();
  expect(phraseBox!.y).toBeLessThan(addressBox!.y);

  // Changed from the exchange screen's Settings, in Russian; then removed.
  await page.goto(`/ru${launchUrl({ user })}`);
  await page.getByRole('link', { name: 'Настройки' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Настройки');
  await expect(page.getByRole('textbox', { name: 'Фраза', exact: true })).toHaveValue(
    'blue otter 42',
  );
  await page.getByRole('textbox', { name: 'Фраза', exact: true }).fill('зелёная цапля 7');
  await page.getByRole('button', { name: 'Сохранить фразу' }).click();
  await expect(page.locator('.phishing__phrase')).toHaveText('зелёная цапля 7');
  expect(await phraseOf(account)).toBe('зелёная цапля 7');
  await page.getByRole('button', { name: 'Удалить', exact: true }).click();
  await expect(page.locator('.phishing__cell')).toContainText('Ещё не задана');
  expect(await phraseOf(account)).toBeNull();
  expect(await portalLinks(page)).toEqual([]);
});

test('a completed order’s receipt is shown in the app and its PDF goes through Telegram’s download', async ({
  page,
}) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createMiniappOrder(page, '0.01');
  await telegramOnlyAccount(user);
  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await staff.confirmPayment(id);
  await staff.complete(id, 'payout-tx-account-1');
  const { transactions_by_pk: order } = await adminGraphql<{
    transactions_by_pk: { number: string };
  }>('query ($id: uuid!) { transactions_by_pk(id: $id) { number } }', { id });
  const number = String(order.number);

  await expect(page.locator('.status-chip').first()).toHaveText('Completed');
  await page.getByRole('button', { name: 'Receipt' }).click();
  await expect(page).toHaveURL(new RegExp(`/telegram-app/transaction/${id}/receipt`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Receipt');
  for (const text of ['Order', number, 'Paid', '0.01 BTC', 'Paid out', 'Rate', /^1 BTC = /]) {
    await expect(page.getByText(text, { exact: typeof text === 'string' }).first()).toBeVisible();
  }
  await expect(page.getByText('Payout transaction id')).toBeVisible();
  await expect(page.getByText('payout-tx-account-1')).toBeVisible();
  await expect(page.getByText(TRC20_ADDRESS)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('miniapp-receipt.png'), fullPage: true });

  // Telegram's own download, of a URL that works without the app's session.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const file = await download;
  await expect(page.getByText('Telegram is downloading the receipt.')).toBeVisible();
  const requests = (await telegramCalls(page)).filter(
    (call) => call.method === 'web_app_request_file_download',
  );
  expect(requests).toHaveLength(1);
  const { url, file_name } = requests[0]!.params as { url: string; file_name: string };
  expect(url).toMatch(new RegExp(`^${WEB_URL}/receipt-download/[A-Za-z0-9_-]{48}$`));
  expect(file_name).toBe(`receipt-${number}.pdf`);
  expect(file.suggestedFilename()).toBe(`receipt-${number}.pdf`);
  const path = await file.path();
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(path);
  if (text === undefined) expect(bytes.toString('latin1')).toContain(`(Receipt ${number})`);
  else expect(text).toContain(`Order ${number}`);
  expect(await portalLinks(page)).toEqual([]);

  // The address itself, fetched as Telegram's client does: no cookie, no token.
  const served = await fetch(url);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('application/pdf');
  expect(served.headers.get('content-disposition')).toBe(
    `attachment; filename="receipt-${number}.pdf"`,
  );

  // An altered token and one past its ten minutes serve nothing, on a page of the site.
  const token = url.split('/').pop()!;
  const altered = `${token.slice(0, 40)}${token[40] === 'A' ? 'B' : 'A'}${token.slice(41)}`;
  const forged = await fetch(`${WEB_URL}/receipt-download/${altered}`);
  expect(forged.status).toBe(404);
  const forgedPage = await forged.text();
  expect(forgedPage).toContain('No receipt at this address');
  expect(forgedPage).not.toContain('%PDF');
  const expired = receiptDownloadToken(DEV_ORDER_LINK_SECRET, id, new Date(Date.now() - 1000));
  const gone = await fetch(`${WEB_URL}/receipt-download/${expired}`, {
    headers: { 'accept-language': 'uk-UA,uk;q=0.9' },
  });
  expect(gone.status).toBe(410);
  expect(gone.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await gone.text()).toContain('Термін дії посилання для завантаження минув');
});
