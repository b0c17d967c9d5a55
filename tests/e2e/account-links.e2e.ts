import pg from 'pg';

import { linkTelegram } from '@app/bot/account-link';

import { registerAccount, signInWithTokens, uniqueEmail } from './accounts.ts';
import { DATABASE_URL } from './stack.ts';
import { expect, hydrated, test } from './support.ts';

/*
 * Settings → Telegram (issue 22, decision 037) on the portal: Link Telegram shows the auth
 * service's one-time link into the bot; when the bot has linked it (its own code, run here on
 * the stack's database as the bot runs it for /start link_<token>: the bot's chat itself is
 * tests/integration/bot/account-link.test.ts), the page says so by itself; Unlink undoes it.
 */

test('links Telegram through the bot link, shows it linked, and unlinks', async ({ page }) => {
  const tokens = await registerAccount(uniqueEmail('telegram-link'));
  await signInWithTokens(page, tokens);
  await page.goto('/settings');
  await hydrated(page);
  const section = page.getByRole('region', { name: 'Telegram' });
  await section.getByRole('button', { name: 'Link Telegram' }).click();
  const open = section.getByRole('link', { name: 'Open the bot' });
  const href = (await open.getAttribute('href')) ?? '';
  const token = /^https:\/\/t\.me\/exchange_sandbox_bot\?start=link_([A-Za-z0-9_-]{43})$/.exec(
    href,
  )?.[1];
  expect(token, href).toBeDefined();
  await expect(section.getByText(/works once, for 15 minutes/)).toBeVisible();

  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  try {
    const person = { id: 700_000_000 + Math.floor(Math.random() * 99_000_000), username: 'lina' };
    expect(await linkTelegram(pool, token!, person)).toBe('done');
    // The page asks by itself and shows the link.
    await expect(section.getByTestId('telegram-linked')).toHaveText('Telegram linked: @lina', {
      timeout: 10_000,
    });
    // The link is used up.
    expect(await linkTelegram(pool, token!, { id: person.id + 1, username: null })).toBe('invalid');
  } finally {
    await pool.end();
  }

  await section.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText('Telegram unlinked')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Link Telegram' })).toBeVisible();
});
