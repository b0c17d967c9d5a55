const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text for an XML element or attribute value: the five special characters as entities, and
 * the characters XML 1.0 does not allow at all (C0 controls but tab, newline and carriage
 * return; lone surrogates; U+FFFE and U+FFFF) left out.
 */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** `<name>text</name>`, the text escaped. */
export const xmlElement = (name: string, text: string): string =>
  `<${name}>${xmlText(text)}</${name}>`;
