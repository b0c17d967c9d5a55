import type { ExchangeCatalog } from './types.ts';

const DEFAULT_PAIR = ['BTC', 'USDTTRC20'] as const;

/**
 * The pair a widget opens with: the asked one when it can be exchanged, else BTC to USDT (TRC20),
 * else the first direction there is.
 */
export function startingPair(catalog: ExchangeCatalog, from?: string | null, to?: string | null) {
  const sources = Object.keys(catalog.directions);
  const pickFrom = from && catalog.directions[from] ? from : DEFAULT_PAIR[0];
  const validFrom = catalog.directions[pickFrom] ? pickFrom : (sources[0] ?? '');
  const targets = catalog.directions[validFrom] ?? [];
  const pickTo =
    to && targets.includes(to)
      ? to
      : targets.includes(DEFAULT_PAIR[1])
        ? DEFAULT_PAIR[1]
        : targets[0];
  return { from: validFrom, to: pickTo ?? '' };
}
