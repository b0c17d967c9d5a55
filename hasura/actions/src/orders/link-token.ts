import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * An order's secret link (issue 10, "order lookup without an account"): a token that carries
 * the order id and an HMAC of it under ORDER_LINK_SECRET, so no table holds the tokens and the
 * order-created e-mail can build the link from the order alone. It is as secret as the e-mail it
 * travels in: whoever holds it sees that one order, read-only and without payment details.
 * Rotating the secret invalidates every link.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID_BYTES = 16;
const MAC_BYTES = 16;
/** base64url of 32 bytes. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function mac(secret: string, id: Buffer): Buffer {
  return createHmac('sha256', secret)
    .update('order-link:')
    .update(id)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** The token of order `orderId` (a uuid). */
export function orderLinkToken(secret: string, orderId: string): string {
  if (!UUID.test(orderId)) throw new Error('orderLinkToken: expected a uuid');
  const id = Buffer.from(orderId.replaceAll('-', ''), 'hex');
  return Buffer.concat([id, mac(secret, id)]).toString('base64url');
}

/** The order id a token names, or null when it is malformed or its MAC does not match. */
export function orderIdOfLinkToken(secret: string, token: string): string | null {
  if (!TOKEN.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // The last character carries two padding bits the decoder ignores: only the canonical
  // spelling of a token is accepted.
  if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString('base64url') !== token) return null;
  const id = bytes.subarray(0, ID_BYTES);
  if (!timingSafeEqual(bytes.subarray(ID_BYTES), mac(secret, id))) return null;
  const hex = id.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The web portal's page for a token, with the locale prefix (none for English). */
export function orderLinkUrl(baseUrl: string, locale: string, token: string): string {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return `${baseUrl}${prefix}/order/${token}`;
}
