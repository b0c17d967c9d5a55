import { requiredText, requiredUuid } from '../http/arguments.ts';
import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';

import {
  checkReceiptDownloadToken,
  RECEIPT_TOKEN_TTL_MS,
  receiptDownloadToken,
  receiptDownloadUrl,
} from './download-token.ts';
import { receiptPdfOf, type ReceiptPdf } from './receipt-pdf.ts';

/*
 * A receipt Telegram downloads (issue 22): `orderReceiptLink` gives the owner of a completed
 * order a short-lived URL on the web portal; the portal serves it by `orderReceiptPdfByToken`
 * (role anonymous: Telegram's client fetches it without anyone's session).
 */

interface TokenOptions {
  /** Signs the tokens (ORDER_LINK_SECRET). */
  linkSecret: string;
}

const notFound = () => new ActionFailure('not-found', 'No such order.', 404);

/** `orderReceiptLink(transactionId)`: `{ url, filename, expiresAt }` for the caller's own order. */
export async function orderReceiptLink(
  options: ActionContext & TokenOptions & { baseUrl: string },
): Promise<{ url: string; filename: string; expiresAt: string }> {
  const id = requiredUuid(options.input, 'transactionId');
  const { userId } = options.caller;
  if (userId === null || options.caller.role !== 'user') throw notFound();
  const { rows } = await options.pool.query<{ number: string; status: string; ready: boolean }>(
    `SELECT number::text AS number, status,
            completed_at IS NOT NULL AND payout_tx_id IS NOT NULL AS ready
       FROM public.transactions WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  const order = rows[0];
  // Someone else's order and no order look the same.
  if (!order) throw notFound();
  if (order.status !== 'completed' || !order.ready) {
    throw new ActionFailure(
      'invalid-transition',
      `Order ${order.number} is ${order.status}; a receipt is available once the order is completed.`,
      400,
      { status: order.status },
    );
  }
  const expiresAt = new Date(options.now.getTime() + RECEIPT_TOKEN_TTL_MS);
  const token = receiptDownloadToken(options.linkSecret, id, expiresAt);
  return {
    url: receiptDownloadUrl(options.baseUrl, token),
    filename: `receipt-${order.number}.pdf`,
    // The token keeps whole seconds.
    expiresAt: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000).toISOString(),
  };
}

/**
 * `orderReceiptPdfByToken(token)`: the PDF a download token names while it works. A forged or
 * malformed token is 'not-found' (404); a genuine one past its time 'link-expired' (410).
 */
export async function orderReceiptPdfByToken(
  options: ActionContext & TokenOptions,
): Promise<ReceiptPdf> {
  const token = requiredText(options.input, 'token', 128);
  const check = checkReceiptDownloadToken(options.linkSecret, token, options.now);
  if (!check.ok) {
    if (check.reason === 'expired')
      throw new ActionFailure('link-expired', 'This download link has expired.', 410);
    throw new ActionFailure('not-found', 'No receipt has this link.', 404);
  }
  // The token proves the owner asked for it; the order must still be completed.
  return receiptPdfOf(options.pool, check.orderId, null);
}
