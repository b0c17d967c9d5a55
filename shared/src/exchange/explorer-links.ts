import { networkOf } from './chains.ts';

/*
 * Links to a block explorer's page of an address or a transaction, per network (the templates
 * live in chains.ts, decision 042). A value is checked against what the chain's addresses or
 * transaction ids look like before it goes into a link, and URL-encoded into the template: an
 * operator's typo, or a value with characters the chain never uses, gets no link rather than a
 * link somewhere else. Fiat, cash and networks without an explorer get none either.
 */

/** The explorer's page of `address` on `network`, or undefined. */
export function explorerAddressUrl(
  network: string | null | undefined,
  address: string | null | undefined,
): string | undefined {
  const chain = networkOf(network);
  const value = address?.trim();
  if (!chain?.explorer.address || !value || !chain.address.test(value)) return undefined;
  return fill(chain.explorer.address, '{address}', value);
}

/** The explorer's page of transaction `tx` on `network`, or undefined. */
export function explorerTxUrl(
  network: string | null | undefined,
  tx: string | null | undefined,
): string | undefined {
  const chain = networkOf(network);
  let value = tx?.trim();
  if (!chain?.explorer.tx || !value) return undefined;
  // An EVM hash pasted without its 0x is still the same hash.
  if (!chain.tx.test(value) && chain.tx.test(`0x${value}`)) value = `0x${value}`;
  if (!chain.tx.test(value)) return undefined;
  return fill(chain.explorer.tx, '{tx}', value);
}

function fill(template: string, placeholder: string, value: string): string {
  return template.replace(placeholder, encodeURIComponent(value));
}
