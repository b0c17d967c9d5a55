import { ActionFailure } from '../http/errors.ts';
import type { ActionContext } from '../http/payload.ts';

/** `orderReceiptPdf` (issue 10): being written; answers 'unavailable' until then. */
export async function orderReceiptPdf(
  _options: ActionContext & { linkSecret: string },
): Promise<{ filename: string; contentBase64: string }> {
  throw new ActionFailure('unavailable', 'Receipts are not available yet.', 503);
}
