import { COIN_AS_NETWORK, FIAT_SIGNS, NETWORKS, TOKEN_ICONS } from './icon-set.ts';

/*
 * One mapping from a currency (a catalog row: ticker, network, kind) to what stands beside its
 * ticker, for the portal and the mini-app alike. Icons are static SVG files the build copies into
 * the assets (client/vite/currency-icons.ts), loaded by <img>, never JavaScript.
 */

// Set by the build (the folder name carries a hash of the icons, so it can be cached for good).
declare const __CURRENCY_ICONS_DIR__: string | undefined;

/** The icons' folder under the app's base (what the build plugin copies the files to). */
export const ICONS_DIR =
  typeof __CURRENCY_ICONS_DIR__ === 'string' ? __CURRENCY_ICONS_DIR__ : 'assets/currency-icons';

export interface CurrencyLike {
  symbol: string;
  network?: string | null;
  /** crypto, fiat or cash; absent where a query does not ask for it. */
  kind?: string | null;
}

export interface CurrencyIcon {
  /** The logo's URL, or null where the set has none (then `text` shows instead). */
  src: string | null;
  /** The fallback: a fiat sign (€, ₴) or the ticker's first letters, never empty. */
  text: string;
  /** A token's network (USDT on TRON, on Ethereum, ...), or null for a chain's own coin. */
  badge: string | null;
}

const TOKENS = new Set(TOKEN_ICONS);

/** The ticker's first two letters or digits (`?` if it has none). */
function initials(symbol: string): string {
  const letters = symbol.replace(/[^\p{L}\p{N}]/gu, '');
  return letters.slice(0, 2) || '?';
}

/** Where a currency's icon, fallback and network badge come from. */
export function currencyIcon(
  currency: CurrencyLike,
  base: string = import.meta.env.BASE_URL,
): CurrencyIcon {
  const symbol = currency.symbol.trim().toUpperCase();
  const network = currency.network?.trim().toUpperCase() || null;
  const url = (file: string) => `${base.endsWith('/') ? base : `${base}/`}${ICONS_DIR}/${file}`;
  const fiat =
    currency.kind === 'fiat' ||
    currency.kind === 'cash' ||
    (!currency.kind && !network && symbol in FIAT_SIGNS);
  if (fiat) return { src: null, text: FIAT_SIGNS[symbol] ?? initials(symbol), badge: null };

  const chain = network ? NETWORKS[network] : undefined;
  const badge = chain && chain.coin !== symbol ? url(`networks/${chain.icon}.svg`) : null;
  const asNetwork = COIN_AS_NETWORK[symbol];
  const src = TOKENS.has(symbol)
    ? url(`tokens/${symbol}.svg`)
    : asNetwork
      ? url(`networks/${asNetwork}.svg`)
      : null;
  return { src, text: initials(symbol), badge };
}
