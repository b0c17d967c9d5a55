import { assetOf, networkOf, type Asset, type Network } from './chains.ts';

/*
 * What the deposit QR code holds: a payment URI in the network's scheme, so a wallet that scans
 * it fills in the address, the amount and the memo (decision 042), the counterpart of
 * wallet-qr.ts, which reads such codes back. Amounts stay decimal strings; base units (wei,
 * nanotons) are made by moving the decimal point in the string, never through a float.
 * Whenever the URI could be wrong (an unknown network or token, an amount the chain cannot
 * hold, an address of another shape) the code holds the bare address, as before.
 */

export interface PaymentRequest {
  /** The catalog's currency code (USDTTRC20, ETH, ...): which coin or token. */
  currency: string;
  /** The catalog's network code, null for fiat and cash. */
  network: string | null | undefined;
  address: string;
  /** The amount to pay, a decimal string such as `12.50000000`. */
  amount?: string | null;
  memo?: string | null;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * `amount` in base units for `decimals` decimals (`1.5`, 18 → `1500000000000000000`), or
 * undefined when it is not a plain positive decimal or has digits below the chain's unit.
 */
export function toBaseUnits(amount: string, decimals: number): string | undefined {
  const match = DECIMAL.exec(amount.trim());
  if (!match || !Number.isInteger(decimals) || decimals < 0) return undefined;
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return undefined;
  const units = `${whole}${fraction.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  return units === '0' ? undefined : units;
}

/** `12.50000000` → `12.5`; undefined unless a plain positive decimal. */
function plainAmount(amount: string): string | undefined {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return undefined;
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return /[1-9]/.test(text) ? text : undefined;
}

/** The payment URI for the QR code, or the bare address when the network has no safe one. */
export function paymentUri(request: PaymentRequest): string {
  const address = request.address.trim();
  const chain = networkOf(request.network);
  if (!chain?.payment || !chain.address.test(address)) return address;
  const known = assetOf(request.currency);
  // A currency listed on another network than the order's is not one the table describes.
  const asset = known?.network === request.network?.toUpperCase() ? known : undefined;
  const amount = request.amount ? plainAmount(request.amount) : undefined;
  const memo = request.memo?.trim() || undefined;
  return build(chain, asset, address, amount, memo) ?? address;
}

function build(
  chain: Network,
  asset: Asset | undefined,
  address: string,
  amount: string | undefined,
  memo: string | undefined,
): string | undefined {
  const payment = chain.payment!;
  // A token whose contract is not of the chain's shape is a mistake in the table: no URI.
  if (asset?.contract !== undefined && !chain.address.test(asset.contract)) return undefined;
  switch (payment.kind) {
    case 'bip21':
      // These chains carry no memo; their only asset is the coin.
      if (memo || asset?.contract !== undefined) return undefined;
      return withQuery(`${payment.scheme}:${address}`, [['amount', amount]]);
    case 'eip681': {
      if (memo || !asset) return undefined;
      const units = amount === undefined ? undefined : toBaseUnits(amount, asset.decimals);
      if (amount !== undefined && units === undefined) return undefined;
      if (asset.contract === undefined)
        return withQuery(`ethereum:${address}@${payment.chainId}`, [['value', units]]);
      return withQuery(`ethereum:${asset.contract}@${payment.chainId}/transfer`, [
        ['address', address],
        ['uint256', units],
      ]);
    }
    case 'ton': {
      if (!asset || !/^[A-Za-z0-9_-]{48}$/.test(address)) return undefined;
      const units = amount === undefined ? undefined : toBaseUnits(amount, asset.decimals);
      if (amount !== undefined && units === undefined) return undefined;
      return withQuery(`ton://transfer/${address}`, [
        ['jetton', asset.contract],
        ['amount', units],
        ['text', memo],
      ]);
    }
    case 'solana':
      if (!asset) return undefined;
      return withQuery(`solana:${address}`, [
        ['amount', amount],
        ['spl-token', asset.contract],
        ['memo', memo],
      ]);
    case 'tron':
      // TRC20 tokens: TRON wallets agree on no token parameter, and an `amount=` they read as
      // TRX would prefill the wrong asset; the bare address is what they all accept.
      if (memo || !asset || asset.contract !== undefined) return undefined;
      return withQuery(`tron:${address}`, [['amount', amount]]);
  }
}

function withQuery(base: string, params: Array<[string, string | undefined]>): string {
  const query = params
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
  return query ? `${base}?${query}` : base;
}
