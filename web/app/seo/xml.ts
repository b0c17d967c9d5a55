/**
 * Text for an XML element or a double-quoted attribute: the five characters XML gives meaning
 * to become entities. A URL in a sitemap is data, so `&` in a query string must be `&amp;`.
 */
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char]!);

const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
