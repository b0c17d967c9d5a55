/** A currency as the order pages name it: `USDT (TRC20)`, `BTC`, or its code when unknown. */
export function currencyLabel(
  code: string,
  info: { symbol: string; network: string | null } | null | undefined,
): string {
  if (!info) return code;
  return info.network && info.network !== info.symbol
    ? `${info.symbol} (${info.network})`
    : info.symbol;
}
