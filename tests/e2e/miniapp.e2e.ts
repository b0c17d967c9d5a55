import type { Page } from '@playwright/test';

import { TELEGRAM_THEMES } from '@app/shared/telegram/themes';

import { adminGraphql } from './accounts.ts';
import { staff } from './staff.ts';
import { expect, expectedFailures, expectNoSeriousViolations, test } from './support.ts';
import {
  accountsOfTelegramUser,
  backButton,
  hapticNotifications,
  launchUrl,
  mainButton,
  newTelegramUser,
  openAsTelegramClient,
  openMiniappOrderForm,
  signedLaunchParams,
  submitMiniappOrderForm,
  telegramCalls,
} from './telegram.ts';

/*
 * The Telegram mini-app (issue: mini-app) on a phone-sized screen, launched as Telegram launches
 * it: validly signed launch data (the development bot token), the real quick-auth, the real
 * engine and live subscriptions. Staff act through the engine's API.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const DEPOSIT_ADDRESS = 'bc1qminiappdeposit0e2etestaddress000000';

/** The access token's user: which account the app signed in as. */
async function signedInUserId(page: Page): Promise<string> {
  await expect
    .poll(() => page.evaluate<string | null>("window.sessionStorage.getItem('accessToken')"))
    .not.toBeNull();
  const token = await page.evaluate<string>("window.sessionStorage.getItem('accessToken')");
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    userId: string;
  };
  return payload.userId;
}

/** From the exchange screen to a created order, through the empty form's errors; returns its id. */
async function createOrder(page: Page, amount: string): Promise<string> {
  await openMiniappOrderForm(page, amount);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Exchange BTC for USDT (TRC20)');
  // Everything empty: the same rules and messages as the web form, and an error buzz.
  await mainButton(page).click();
  await expect(page.getByText('The field is required')).toHaveCount(4);
  await expect(page.getByText('You must agree to continue')).toHaveCount(2);
  expect(await hapticNotifications(page)).toContain('error');
  return submitMiniappOrderForm(page);
}

test('silent sign-in creates the Telegram account once; the next launch reuses it', async ({
  browser,
  page,
}) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user, lang: 'uk' }));
  // Telegram's language_code uk is the Ukrainian interface.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Обмін');
  const first = await signedInUserId(page);
  expect(await accountsOfTelegramUser(user)).toEqual([
    expect.objectContaining({ id: first, locale: 'ua' }),
  ]);
  await expectNoSeriousViolations(page);

  // A second launch (a new WebView: nothing stored) signs in to the same account.
  const second = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await second.goto(launchUrl({ user, lang: 'en' }));
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('Exchange');
  expect(await signedInUserId(second)).toBe(first);
  expect(await accountsOfTelegramUser(user)).toHaveLength(1);
  // A locale prefix in the address outranks Telegram's language.
  await second.goto(`/ru${launchUrl({ user, lang: 'en' })}`);
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('Обмен');
  await second.close();
});

test('an exchange made in the app follows staff to completed; history repeats it', async ({
  page,
}) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createOrder(page, '0.02');
  expect(await hapticNotifications(page)).toContain('success');

  await expect(page.getByText('Waiting for operator')).toBeVisible();
  await expect(page.getByText(/takes 2 to 10 minutes/)).toBeVisible();
  // Back from the order goes to the exchange, not to the filled-in form.
  await expect(backButton(page)).toBeVisible();

  await staff.supplyAddress(id, DEPOSIT_ADDRESS);
  await expect(page.getByText('Waiting for payment', { exact: true })).toBeVisible();
  await expect(page.getByText(DEPOSIT_ADDRESS)).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of the deposit address' })).toBeVisible();
  await expect(page.locator('.qr svg')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel the exchange' })).toBeVisible();

  await staff.confirmPayment(id);
  await expect(page.getByText(/Payment received/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel the exchange' })).toHaveCount(0);
  const buzzesBefore = (await hapticNotifications(page)).length;
  await staff.complete(id, 'payout-tx-miniapp-1');
  await expect(page.getByText('This transfer was successfully completed.')).toBeVisible();
  await expect(page.getByText('payout-tx-miniapp-1')).toBeVisible();
  // The live change to completed buzzes once more, with success.
  await expect
    .poll(async () => (await hapticNotifications(page)).slice(buzzesBefore))
    .toEqual(['success']);
  await expect(mainButton(page)).toHaveText('New exchange');

  // History: the order with its status chip, and Repeat opening the exchange prefilled.
  await page.goto(launchUrl({ user, path: '/transactions-history' }));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transactions history (1)');
  const row = page.getByRole('listitem').filter({ hasText: '0.02 BTC' });
  await expect(row.getByText('Completed')).toBeVisible();
  await row.getByRole('button', { name: /Repeat order/ }).click();
  await expect(page).toHaveURL(/\/telegram-app\/?\?from=BTC&to=USDTTRC20&side=send&amount=0\.02/);
  await expect(page.locator('#send-amount')).toHaveValue('0.02');
  await expect(page.getByText(/1 BTC ≈/)).toBeVisible();
  // Back returns to the history it came from.
  await backButton(page).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transactions history (1)');
});

test('the owner cancels a waiting order in the app', async ({ page }) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  const id = await createOrder(page, '0.01');
  // Telegram's own popup asks (the development client draws it as Telegram would).
  const popup = page.locator('[data-telegram="popup"]');
  await page.getByRole('button', { name: 'Cancel the exchange' }).click();
  await expect(popup).toContainText('Cancel this order? This cannot be undone.');
  await popup.getByRole('button', { name: 'Keep the order' }).click();
  await expect(popup).toHaveCount(0);
  await expect(page.getByText('Waiting for operator')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel the exchange' }).click();
  await popup.getByRole('button', { name: 'Yes, cancel it' }).click();
  const opened = (await telegramCalls(page)).filter((call) => call.method === 'web_app_open_popup');
  expect(opened).toHaveLength(2);
  await expect(page.getByText(/The order was canceled/)).toBeVisible();
  const { transactions_by_pk: row } = await adminGraphql<{
    transactions_by_pk: { status: string };
  }>('query ($id: uuid!) { transactions_by_pk(id: $id) { status } }', { id });
  expect(row.status).toBe('canceled');
});

test('deep links open an order, or a pair with a referral code for a new account', async ({
  browser,
  page,
}) => {
  const owner = newTelegramUser();
  await page.goto(launchUrl({ user: owner }));
  const id = await createOrder(page, '0.015');

  const reopened = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await reopened.goto(launchUrl({ user: owner, startapp: `order_${id}` }));
  await expect(reopened).toHaveURL(new RegExp(`/telegram-app/transaction/${id}`));
  await expect(reopened.getByText('0.015 BTC')).toBeVisible();
  // Opened directly: back leads to the exchange, not out of the app.
  await backButton(reopened).click();
  await expect(reopened.locator('#send-amount')).toBeVisible();
  await reopened.close();

  // Someone else's order link shows nothing of it.
  const stranger = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await stranger.goto(launchUrl({ user: newTelegramUser(), startapp: `order_${id}` }));
  await expect(
    stranger.getByText('No such order, or it belongs to another account.'),
  ).toBeVisible();
  await stranger.close();

  // A referrer's link with a pair: the new account is theirs, the pair is preset.
  const { portal_users: owners } = await adminGraphql<{
    portal_users: Array<{ id: string; referral_name: string }>;
  }>(
    'query ($user: bigint!) { portal_users(where: { telegram_id: { _eq: $user } }) { id referral_name } }',
    { user: owner },
  );
  const referrer = owners[0]!;
  const invited = newTelegramUser();
  const link = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await link.goto(
    launchUrl({ user: invited, startapp: `pair_eth-to-btc__ref_${referrer.referral_name}` }),
  );
  await expect(link.getByRole('button', { name: /^From ETH/ })).toBeVisible();
  await expect(link.getByRole('button', { name: /^To BTC/ })).toBeVisible();
  await expect
    .poll(async () => (await accountsOfTelegramUser(invited))[0]?.referrer_id)
    .toBe(referrer.id);
  await link.close();
});

test('every launch in one tab opens its own deep link, a reload stays put', async ({ page }) => {
  // Telegram Web opens every launch of the mini-app in the same tab (one sessionStorage).
  const owner = newTelegramUser();
  await page.goto(launchUrl({ user: owner }));
  const id = await createOrder(page, '0.015');

  await page.goto(launchUrl({ user: owner, startapp: `order_${id}` }));
  await expect(page).toHaveURL(new RegExp(`/telegram-app/transaction/${id}`));
  await expect(page.getByText('0.015 BTC')).toBeVisible();

  // The next launch, from another of the bot's buttons: its own link.
  await page.goto(launchUrl({ user: owner, startapp: 'pair_eth-to-btc' }));
  await expect(page.getByRole('button', { name: /^From ETH/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^To BTC/ })).toBeVisible();

  // And the order's button again: the order, not the exchange this tab showed last.
  await page.goto(launchUrl({ user: owner, startapp: `order_${id}` }));
  await expect(page).toHaveURL(new RegExp(`/telegram-app/transaction/${id}`));

  // Within that launch the person goes back to the exchange and reloads: no jump to the order.
  await backButton(page).click();
  await expect(page.locator('#send-amount')).toBeVisible();
  await page.reload();
  await expect(page.locator('#send-amount')).toBeVisible();
  await expect(page).not.toHaveURL(/\/transaction\//);
});

test('the main button stays up while the person types, changing in place', async ({ page }) => {
  await page.goto(launchUrl({ user: newTelegramUser() }));
  await expect(mainButton(page)).toBeVisible();
  const before = (await telegramCalls(page)).length;
  await page.locator('#send-amount').pressSequentially('0.0150', { delay: 30 });
  await expect(page.getByText(/1 BTC ≈/)).toBeVisible();
  await page.locator('#send-amount').fill('');
  await page.locator('#send-amount').pressSequentially('2', { delay: 30 });
  const setups = (await telegramCalls(page))
    .slice(before)
    .filter((call) => call.method === 'web_app_setup_main_button')
    .map((call) => call.params as { is_visible?: boolean });
  expect(setups.length).toBeGreaterThan(0);
  expect(setups.filter((params) => params.is_visible === false)).toEqual([]);
});

test('the app sits in Telegram as its own: colours, swipes, and a question before losing a form', async ({
  page,
}) => {
  await page.goto(launchUrl({ user: newTelegramUser() }));
  await expect(mainButton(page)).toBeVisible();
  const calls = async () => await telegramCalls(page);
  const params = async (method: string) =>
    (await calls()).filter((call) => call.method === method).map((call) => call.params);
  // Set up just after the first paint (sdk.ts: finishTelegramSetup), one step a task.
  await expect
    .poll(() => params('web_app_set_header_color'))
    .toContainEqual({ color_key: 'secondary_bg_color' });
  await expect
    .poll(async () => (await params('web_app_set_background_color')).length)
    .toBeGreaterThan(0);
  await expect
    .poll(async () => (await params('web_app_set_bottom_bar_color')).length)
    .toBeGreaterThan(0);
  await expect
    .poll(() => params('web_app_setup_swipe_behavior'))
    .toContainEqual({ allow_vertical_swipe: false });
  await expect.poll(async () => (await params('web_app_ready')).length).toBeGreaterThan(0);

  // The order form: nothing typed, nothing to ask; a name typed, Telegram asks before closing.
  await page.locator('#send-amount').fill('0.015');
  await expect(page.getByText(/1 BTC ≈/)).toBeVisible();
  await mainButton(page).click();
  await expect(page.locator('#order-fullName')).toBeVisible();
  expect(await params('web_app_setup_closing_behavior')).not.toContainEqual({
    need_confirmation: true,
  });
  await page.locator('#order-fullName').fill('Taras Telegram');
  await expect
    .poll(() => params('web_app_setup_closing_behavior'))
    .toContainEqual({ need_confirmation: true });
  // Back to the exchange: nothing is lost by closing any more.
  await backButton(page).click();
  await expect(page.locator('#send-amount')).toBeVisible();
  await expect
    .poll(async () => (await params('web_app_setup_closing_behavior')).at(-1))
    .toEqual({ need_confirmation: false });
});

test('a history row shows the whole received amount beside a long status chip', async ({
  page,
}) => {
  const user = newTelegramUser();
  await page.goto(launchUrl({ user }));
  await createOrder(page, '0.015');
  await page.goto(launchUrl({ user, lang: 'ru', path: '/transactions-history' }));
  const row = page.getByRole('listitem').filter({ hasText: '0.015 BTC' });
  await expect(row.getByText('Ожидание оператора')).toBeVisible();
  const received = row.getByText(/^→ .*USDT \(TRC20\)$/);
  await expect(received).toBeVisible();
  // Not cut off: the text fits its box (an ellipsis would leave it wider than shown).
  const fits = await received.evaluate((element) => {
    const box = element as unknown as { scrollWidth: number; clientWidth: number };
    return box.scrollWidth <= box.clientWidth + 1;
  });
  expect(fits).toBe(true);
});

test('a new account’s empty history points to the exchange screen, in its language', async ({
  page,
}) => {
  await page.goto(
    launchUrl({ user: newTelegramUser(), lang: 'ru', path: '/transactions-history' }),
  );
  await expect(
    page.getByText('Выберите пару и сумму на экране обмена — это займёт минуту.'),
  ).toBeVisible();
});

test("the app takes the look of the person's Telegram client: Apple's on iOS and macOS", async ({
  page,
}) => {
  // telegram-ui's iOS look sets its own type scale (a 41 px large-title line against 42).
  const largeTitleLine = () =>
    page.evaluate<string>(
      "getComputedStyle(document.querySelector('.app-root')).getPropertyValue('--tgui--large_title--line_height').trim()",
    );
  for (const [platform, line] of [
    ['ios', '41px'],
    ['macos', '41px'],
    ['android', '42px'],
    ['tdesktop', '42px'],
  ] as const) {
    await page.goto(launchUrl({ user: newTelegramUser(), platform }));
    await expect(page.locator('#send-amount')).toBeVisible();
    expect(await largeTitleLine(), platform).toBe(line);
  }
});

test("the app follows Telegram's theme, light or dark, live", async ({ page }) => {
  // Scripts as strings: this project's test types have no DOM (they run in the page).
  const background = () =>
    page.evaluate<string>("getComputedStyle(document.querySelector('.app-root')).backgroundColor");
  // Telegram's default here is dark (the launch data's theme parameters).
  await page.goto(launchUrl({ user: newTelegramUser() }));
  await expect(page.locator('#send-amount')).toBeVisible();
  expect(await background()).toBe('rgb(24, 24, 24)');
  await page.screenshot({ path: test.info().outputPath('miniapp-dark.png') });

  // The person switches Telegram to light: Telegram sends theme_changed, the colours follow.
  const event = JSON.stringify({
    eventType: 'theme_changed',
    eventData: { theme_params: TELEGRAM_THEMES.light },
  });
  await page.evaluate(`window.postMessage(${JSON.stringify(event)}, '*')`);
  await expect.poll(background).toBe('rgb(244, 244, 245)');
  await expect(page.locator('.app-root')).toHaveCSS('color', 'rgb(0, 0, 0)');
  await page.screenshot({ path: test.info().outputPath('miniapp-light.png') });

  // And a launch in the light theme starts light.
  await page.goto(launchUrl({ user: newTelegramUser(), theme: 'light' }));
  await expect(page.locator('#send-amount')).toBeVisible();
  expect(await background()).toBe('rgb(244, 244, 245)');
});

test('tampered launch data is refused with a clear error, and no account is made', async ({
  page,
  consoleErrors,
}) => {
  const user = newTelegramUser();
  const params = await signedLaunchParams(user);
  // Someone edits the user id inside Telegram's signed data.
  const data = params.get('tgWebAppData')!.replace(String(user), String(user + 1));
  params.set('tgWebAppData', data);
  await openAsTelegramClient(page, params);
  await expect(page.getByRole('alert')).toHaveText('We could not confirm your Telegram account');
  await expect(page.getByText(/Close the app and open it again from the bot/)).toBeVisible();
  // Nothing to try again with this launch: the button closes the app, through Telegram.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect
    .poll(async () => (await telegramCalls(page)).map((call) => call.method))
    .toContain('web_app_close');
  expect(await accountsOfTelegramUser(user)).toEqual([]);
  expect(await accountsOfTelegramUser(user + 1)).toEqual([]);
  expectedFailures(consoleErrors, /401/);
});

test('the untampered launch data of a real client signs in and follows its button’s deep link', async ({
  page,
}) => {
  const user = newTelegramUser();
  // A bot's web_app button opens the app's address with ?startapp=; Telegram adds the hash.
  await openAsTelegramClient(page, await signedLaunchParams(user), '?startapp=pair_eth-to-btc');
  await expect(page.getByRole('button', { name: /^From ETH/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^To BTC/ })).toBeVisible();
  await expect.poll(async () => (await accountsOfTelegramUser(user)).length).toBeGreaterThan(0);
});
