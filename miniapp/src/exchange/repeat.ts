import { trimZeros } from '@app/shared/exchange';

/** The exchange screen prefilled like an earlier order: same pair, same amount sent. */
export function repeatPath(order: {
  send_currency: string;
  receive_currency: string;
  send_amount: string;
}): string {
  const query = new URLSearchParams({
    from: order.send_currency,
    to: order.receive_currency,
    side: 'send',
    amount: trimZeros(order.send_amount),
  });
  return `/?${query.toString()}`;
}
