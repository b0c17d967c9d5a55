import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * A receipt's download token (issue 22, docs/decisions/036-telegram-users-settings-and-receipts.md):
 * Telegram's client downloads a file by URL itself, without the person's session, so the URL
 * carries the proof. The token holds the order id, the moment it stops working and an HMAC of
 * both under ORDER_LINK_SECRET (the secret of the orders' links, with a label of its own, so
 * neither kind of token passes for the other). Nothing is stored; it is unguessable (128-bit MAC)
 * and stops working on its own after RECEIPT_TOKEN_TTL_MS.
 */

/** How long a download token works: long enough for Telegram to fetch it, then nothing. */
export const RECEIPT_TOKEN_TTL_MS = 10 * 60 * 1000;

const ID_BYTES = 16;
const EXPIRY_BYTES = 4;
const MAC_BYTES = 16;
/** base64url of 36 bytes (no padding bits: 36 is a multiple of 3). */
const TOKEN = /^[A-Za-z0-9_-]{48}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function mac(secret: string, body: Buffer): Buffer {
  return createHmac('sha256', secret)
    .update('receipt-download:')
    .update(body)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** A token for order `orderId`'s receipt, working until `expiresAt` (whole seconds). */
export function receiptDownloadToken(secret: string, orderId: string, expiresAt: Date): string {
  if (!UUID.test(orderId)) throw new Error('receiptDownloadToken: expected a uuid');
  const body = Buffer.alloc(ID_BYTES + EXPIRY_BYTES);
  Buffer.from(orderId.replaceAll('-', ''), 'hex').copy(body);
  body.writeUInt32BE(Math.floor(expiresAt.getTime() / 1000), ID_BYTES);
  return Buffer.concat([body, mac(secret, body)]).toString('base64url');
}

export type TokenCheck =
  | { ok: true; orderId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'expired' };

/** What a token names at `now`: its order, or why not (forged or malformed; expired). */
export function checkReceiptDownloadToken(secret: string, token: string, now: Date): TokenCheck {
  if (!TOKEN.test(token)) return { ok: false, reason: 'invalid' };
  const bytes = Buffer.from(token, 'base64url');
  const body = bytes.subarray(0, ID_BYTES + EXPIRY_BYTES);
  if (!timingSafeEqual(bytes.subarray(ID_BYTES + EXPIRY_BYTES), mac(secret, body)))
    return { ok: false, reason: 'invalid' };
  // Only a genuine token's expiry is told apart from a forgery.
  if (body.readUInt32BE(ID_BYTES) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  const hex = body.subarray(0, ID_BYTES).toString('hex');
  return {
    ok: true,
    orderId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
  };
}

/** The web portal's address that serves the PDF of `token` (web/app/routes/receipt-download.ts). */
export const receiptDownloadUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}/receipt-download/${token}`;
