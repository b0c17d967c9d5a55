import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/*
 * Debian's Chromium for the security checks, as the e2e config runs it, and pages that keep
 * every Content-Security-Policy violation (the `securitypolicyviolation` event, from before the
 * page's own scripts run), console error and uncaught exception they see.
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

export interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
}

export interface WatchedPage {
  page: Page;
  /** CSP violations the page (and its frames) reported. */
  violations(): Promise<Violation[]>;
  /** Console errors and uncaught exceptions, in order. */
  errors: string[];
}

/** Collects every violation in the page and its frames into `window.__cspViolations`. */
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', function (event) {
    window.__cspViolations.push({
      directive: event.violatedDirective,
      blocked: event.blockedURI,
      sample: event.sample,
      source: event.sourceFile + ':' + event.lineNumber,
    });
  });
`;

export async function watchedPage(
  context: BrowserContext,
  initScripts: string[] = [],
): Promise<WatchedPage> {
  await context.addInitScript(RECORD_VIOLATIONS);
  for (const script of initScripts) await context.addInitScript(script);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return {
    page,
    errors,
    async violations() {
      const found: Violation[] = [];
      for (const frame of page.frames()) {
        const list = await frame
          .evaluate<Violation[] | undefined>('window.__cspViolations')
          .catch(() => undefined);
        found.push(...(list ?? []));
      }
      return found;
    },
  };
}

/** Waits until React has hydrated a portal page (root.tsx marks <html data-hydrated>). */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/** Signs the page's origin in with these tokens (the portal keeps them in localStorage). */
export const signInScript = (tokens: { accessToken: string; refreshToken: string }): string =>
  `window.localStorage.setItem('accessToken', ${JSON.stringify(tokens.accessToken)});
   window.localStorage.setItem('refreshToken', ${JSON.stringify(tokens.refreshToken)});`;
