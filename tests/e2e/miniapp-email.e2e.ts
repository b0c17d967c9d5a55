import { adminGraphql, uniqueEmail } from './accounts.ts';
import { AUTH_URL } from './stack.ts';
import { expect, test } from './support.ts';
import { accountsOfTelegramUser, launchUrl, newTelegramUser } from './telegram.ts';

/*
 * Mini-app Settings → E-mail (issue 22, decision 037): a Telegram account adds an address and
 * proves it with the code mailed there (real SMTP to the suite's mailbox); after that the
 * address signs in on the portal to the same account.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const codeIn = (text: string | undefined) => /:\s(\d{6})\b/.exec(text ?? '')?.[1] ?? '';

test('a Telegram account adds an e-mail, proves it, and the portal signs in to it', async ({
  page,
  mailbox,
}) => {
  const user = newTelegramUser();
  const email = uniqueEmail('miniapp-email');
  await page.goto(launchUrl({ user, path: '/settings' }));
  await page.locator('#settings-add-email').fill(email);
  await page.getByRole('button', { name: 'Send a code' }).click();
  await expect(page.getByText(`We sent a 6-digit code to ${email}`)).toBeVisible();
  const mail = await mailbox.waitFor(email, undefined, 15_000);
  await page.locator('#settings-add-code').fill(codeIn(mail.text));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/Address confirmed/)).toBeVisible();
  await expect(page.getByTestId('email-current')).toContainText(email);

  const [account] = await accountsOfTelegramUser(user);
  const { portal_users_by_pk: row } = await adminGraphql<{
    portal_users_by_pk: { email: string | null; is_verified_email: boolean };
  }>('query ($id: uuid!) { portal_users_by_pk(id: $id) { email is_verified_email } }', {
    id: account!.id,
  });
  expect(row).toEqual({ email, is_verified_email: true });

  // The portal's e-mail sign-in: a code to the address opens the same account.
  const seen = [...mailbox.to(email)];
  const post = async (path: string, body: Record<string, unknown>) =>
    (await (
      await fetch(`${AUTH_URL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;
  const challenge = await post('/quick-auth', { email });
  const signIn = await mailbox.waitFor(email, (m) => !seen.includes(m), 15_000);
  const tokens = await post('/login_with_2fa', {
    token: challenge['token'],
    code: codeIn(signIn.text),
  });
  const claims = JSON.parse(
    Buffer.from(String(tokens['accessToken']).split('.')[1] ?? '', 'base64url').toString(),
  ) as Record<string, Record<string, string>>;
  expect(claims['https://hasura.io/jwt/claims']?.['x-hasura-user-id']).toBe(account!.id);
});
