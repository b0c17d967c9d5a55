import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Locale } from '@app/shared/i18n';
import { loginPath, safeRedirect } from '@app/web/auth/redirect';

/*
 * SECURITY.md 12 (no open redirect), issue 19 point 7e: where a sign-in sends the browser must
 * be a page of this site, however the `redirectTo` was written. The browser resolves the answer
 * against the page it is on, so that is what is checked: against the site's real origin and
 * another one, the answer never leaves the origin, and never changes meaning when resolved
 * again (a path that a second resolution would read as `//host` is not a path of this site).
 */

const SITES = ['https://exchange.example', 'http://localhost:3000'];
const LOCALES: Locale[] = ['en', 'ru', 'ua'];

/** The pieces hostile `redirectTo` values are built from. */
const PIECES = [
  '/',
  '//',
  '\\',
  '/\\',
  '\\/',
  '.',
  '..',
  '/./',
  '/../',
  '%2F',
  '%2f',
  '%5C',
  '%2e',
  '%252F',
  '\t',
  '\n',
  '\r',
  ' ',
  '\u0000',
  '\u00a0',
  '\u3002',
  '@',
  ':',
  '?',
  '#',
  'javascript:',
  'JaVaScRiPt:',
  'data:text/html,',
  'http:',
  'https:',
  'evil.example',
  'exchange.example',
  'localhost',
  'settings',
  'ru',
  'login',
  '127.0.0.1',
  '[::1]',
];

const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 10 })
  .map((parts) => parts.join(''));

/** Where the browser goes when the page at `site` navigates to `target`. */
const resolved = (target: string, site: string) => new URL(target, `${site}/login`);

function assertStaysOnSite(target: string, locale: Locale): void {
  assertSitePath(safeRedirect(target, locale), target);
}

/** `answer` is a path of whichever site resolves it, and means the same when resolved again. */
function assertSitePath(answer: string, target: string): void {
  expect(answer.startsWith('/'), JSON.stringify({ target, answer })).toBe(true);
  for (const site of SITES) {
    const once = resolved(answer, site);
    expect(once.origin, JSON.stringify({ target, answer, site })).toBe(new URL(site).origin);
    // What the router hands on is the path it got: resolving it again lands in the same place.
    const again = resolved(`${once.pathname}${once.search}${once.hash}`, site);
    expect(again.href, JSON.stringify({ target, answer, site })).toBe(once.href);
  }
}

describe('safeRedirect', () => {
  it('security regression: /.//evil.example does not become //evil.example', () => {
    for (const target of [
      '/.//evil.example',
      '/./\\evil.example',
      '/..//evil.example',
      '/%2e//evil.example',
      '/a/..//evil.example',
      '/.//evil.example/settings?x=1#y',
    ]) {
      const answer = safeRedirect(target, 'en');
      expect(answer, target).not.toMatch(/^\/\//);
      assertStaysOnSite(target, 'en');
    }
  });

  it('security regression: generated hostile targets always resolve to the site itself', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom(...LOCALES), (target, locale) => {
        assertStaysOnSite(target, locale);
        assertStaysOnSite(`/${target}`, locale);
      }),
      { numRuns: 5_000 },
    );
  });

  it('security regression: the login page never carries a way back off the site', () => {
    fc.assert(
      fc.property(hostile, fc.constantFrom(...LOCALES), (target, locale) => {
        const login = new URL(loginPath(locale, `/${target}`), SITES[0]);
        const back = login.searchParams.get('redirectTo');
        if (back !== null) assertSitePath(back, target);
        expect(login.origin).toBe(SITES[0]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps ordinary paths of the site, with their query and hash', () => {
    expect(safeRedirect('/settings', 'en')).toBe('/settings');
    expect(safeRedirect('/ru/transaction/42?tab=1#top', 'ru')).toBe('/ru/transaction/42?tab=1#top');
    expect(safeRedirect('/affiliate-program/../settings', 'en')).toBe('/settings');
    expect(safeRedirect('/%2F%2Fevil.example', 'en')).toBe('/%2F%2Fevil.example');
    for (const target of ['/\\evil.example', '//evil.example', 'javascript:alert(1)']) {
      expect(safeRedirect(target, 'ru')).toBe('/ru');
    }
  });
});
