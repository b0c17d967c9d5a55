import { escapeHtml, type MailMessage } from '@app/shared/mail';

/*
 * A letter is plain text throughout: paragraphs, label/value facts, an optional multi-line
 * block (a support message) and an optional link. render() makes the text part and an HTML
 * part in which every piece is escaped, so no value from an order, a request or a template
 * can add markup; links are built from configuration and ids the payload schema checked.
 */

export interface Letter {
  subject: string;
  paragraphs: string[];
  facts?: Array<[label: string, value: string]>;
  /** Shown after the facts, line breaks kept. */
  block?: string;
  after?: string[];
  /** Further links after `after`, each with an optional sentence before it. */
  links?: Array<{ intro?: string; label: string; href: string }>;
  action?: { label: string; href: string };
}

/** One line of at most `max` printable characters, for text a person typed. */
export const oneLine = (value: string | null | undefined, max = 200): string =>
  (value ?? '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);

/** Multi-line text a person typed: line breaks kept, other control characters dropped. */
export const multiLine = (value: string, max = 5000): string =>
  value
    .replace(/\r\n?/g, '\n')
    .replace(/[^\P{Cc}\n\t]/gu, '')
    .slice(0, max);

export function render(letter: Letter, to: string): MailMessage {
  const facts = letter.facts ?? [];
  const after = letter.after ?? [];
  const links = letter.links ?? [];
  const text = [
    ...letter.paragraphs,
    ...(facts.length > 0 ? [facts.map(([label, value]) => `${label}: ${value}`).join('\n')] : []),
    ...(letter.block !== undefined ? [letter.block] : []),
    ...after,
    ...links.map(({ intro, label, href }) => `${intro ? `${intro}\n` : ''}${label}: ${href}`),
    ...(letter.action ? [`${letter.action.label}: ${letter.action.href}`] : []),
  ].join('\n\n');

  const paragraph = (value: string) => `<p>${escapeHtml(value)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.4">',
    ...letter.paragraphs.map(paragraph),
    ...(facts.length > 0
      ? [
          '<table style="border-collapse:collapse">',
          ...facts.map(
            ([label, value]) =>
              `<tr><td style="padding:2px 12px 2px 0;color:#555">${escapeHtml(label)}</td>` +
              `<td style="padding:2px 0"><strong>${escapeHtml(value)}</strong></td></tr>`,
          ),
          '</table>',
        ]
      : []),
    ...(letter.block !== undefined
      ? [`<p style="white-space:pre-wrap">${escapeHtml(letter.block)}</p>`]
      : []),
    ...after.map(paragraph),
    ...links.map(
      ({ intro, label, href }) =>
        `<p>${intro ? `${escapeHtml(intro)}<br>` : ''}` +
        `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`,
    ),
    ...(letter.action
      ? [
          `<p><a href="${escapeHtml(letter.action.href)}">${escapeHtml(letter.action.label)}</a></p>`,
        ]
      : []),
    '</body></html>',
  ].join('\n');
  return { to, subject: oneLine(letter.subject, 200), text, html };
}
