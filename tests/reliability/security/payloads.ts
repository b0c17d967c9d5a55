import type { Page } from 'playwright-core';

/*
 * Hostile text for the escaping checks (issue 11): markup that runs script when a page, a mail
 * or a chat message takes it for markup, a `javascript:` URL, a right-to-left override, Telegram
 * and HTML formatting, and an e-mail header line. Each field gets the text with a tag of its own,
 * so a check names the field that leaked.
 */

export const SCRIPT = '<script>window.__pwned=1</script>';
export const IMAGE = '"><img src=x onerror=window.__pwned=1>';
export const JAVASCRIPT_URL = 'javascript:window.__pwned=1';
/** U+202E RIGHT-TO-LEFT OVERRIDE: `txt.exe` shown as `exe.txt`. */
export const RTL = '\u202Eexe.txt';
export const FORMATTING = '*bold* <b>x</b> _i_';
/** A second header after a line break, were a header built from the text. */
export const HEADER_LINE = '\r\nBcc: x@y.example';
export const INJECTED_RECIPIENT = 'x@y.example';

/** The hostile text of one field, one line. */
export const hostile = (tag: string): string =>
  `[${tag}] ${SCRIPT} ${IMAGE} ${JAVASCRIPT_URL} ${RTL} ${FORMATTING}`;

/** The same with a header line after it (for fields that may end up in a mail header). */
export const hostileWithHeader = (tag: string): string => `${hostile(tag)}${HEADER_LINE}`;

/** Whitespace runs as one space: how a line break shows in a one-line rendering. */
export const squashed = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** What HTML escaping makes of text (the five characters escapeHtml replaces). */
export const htmlEscaped = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The markup a successful injection would have left in a page. */
export interface InjectionTraces {
  pwned: unknown;
  injectedImages: number;
  injectedScripts: number;
  handlers: number;
  javascriptLinks: number;
  boldX: number;
}

/** Looks for every trace of markup from the payloads in the page and its frames. */
export async function injectionTraces(page: Page): Promise<InjectionTraces> {
  return page.evaluate<InjectionTraces>(`(() => {
    const all = [...document.querySelectorAll('*')];
    return {
      pwned: window.__pwned,
      injectedImages: document.querySelectorAll('img[src="x"]').length,
      injectedScripts: [...document.scripts].filter((s) => s.textContent.includes('__pwned')).length,
      handlers: all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on') && a.value.includes('__pwned'))).length,
      javascriptLinks: [...document.querySelectorAll('a[href]')].filter((a) => /^\\s*javascript:/i.test(a.getAttribute('href'))).length,
      boldX: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'x').length,
    };
  })()`);
}

export const NO_TRACES: InjectionTraces = {
  pwned: undefined,
  injectedImages: 0,
  injectedScripts: 0,
  handlers: 0,
  javascriptLinks: 0,
  boldX: 0,
};

/** The page's visible text, whitespace squashed. */
export const pageText = async (page: Page): Promise<string> =>
  squashed(await page.evaluate<string>('document.body.innerText'));
