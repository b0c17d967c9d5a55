/** A currency code as people read it in a link: USDTTRC20 is USDT. */
export const shortName = (code: string): string => code.replace(/(TRC20|ERC20|BEP20)$/, '');

/** `/create-transaction/{pair}` slug: BTC and XMR give `btc-to-xmr`. */
export const pairSlug = (from: string, to: string): string =>
  `${from.toLowerCase()}-to-${to.toLowerCase()}`;

/** The codes of a pair slug, upper-cased; null when it is not `<code>-to-<code>`. */
export function parsePairSlug(slug: string): { from: string; to: string } | null {
  const match = /^([a-z0-9]{2,16})-to-([a-z0-9]{2,16})$/.exec(slug.toLowerCase());
  return match ? { from: match[1]!.toUpperCase(), to: match[2]!.toUpperCase() } : null;
}
