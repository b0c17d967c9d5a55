import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page } from '@playwright/test';

import pg from 'pg';

import { mailContent, startMailbox, type Mailbox } from '../support/mailbox.ts';
import { scanForRequisites } from '../support/requisites-scan.ts';

import { DATABASE_URL, E2E_PORTS } from './stack.ts';

/*
 * Every page a test opens is watched: a console error (which includes a missing translation,
 * see client/src/i18n/i18n.ts) or an uncaught exception fails the test. The stack mails to a real
 * SMTP server the worker runs on E2E_PORTS.smtp (one worker, so one mailbox); when the worker
 * ends, every mail it received is scanned for every payment detail in the stack's database
 * (none may carry one: docs/decisions/015-order-trust.md).
 */
export const test = base.extend<{ consoleErrors: string[] }, { mailbox: Mailbox }>({
  mailbox: [
    // Playwright reads a fixture's dependencies from this pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mailbox = await startMailbox(E2E_PORTS.smtp);
      await use(mailbox);
      await mailbox.close();
      const db = new pg.Client({ connectionString: DATABASE_URL });
      await db.connect();
      try {
        await scanForRequisites(db, mailbox.messages.map(mailContent));
      } finally {
        await db.end();
      }
    },
    { scope: 'worker', auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Drops the console lines `pattern` matches: failures a test provokes on purpose (a 404, a 401). */
export function expectedFailures(consoleErrors: string[], pattern: RegExp): void {
  const unexpected = consoleErrors.filter((message) => !pattern.test(message));
  consoleErrors.splice(0, consoleErrors.length, ...unexpected);
}

/** Waits until React has hydrated the page (the client router is live). */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/** axe on the page as it is: no serious or critical violation. */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}
