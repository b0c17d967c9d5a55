/*
 * What a wallet's "receive" QR code holds, read back into a payout address. Wallets show either
 * the bare address or a payment URI in their network's scheme: BIP-21 (`bitcoin:bc1…?amount=`),
 * EIP-681 (`ethereum:0x…@56/transfer?address=…`: the token contract comes first, the receiver in
 * `address=`), TON (`ton://transfer/EQ…?amount=`), Solana Pay (`solana:…?amount=`), TRON
 * (`tron:T…`). A URL-shaped parser would not do: `bitcoin:…` has no authority and `ton://` puts
 * the address in the path. Whatever comes back is still checked by the form's address rule.
 */

/** Longest address any supported network uses, with room to spare (the form allows 128). */
const MAX_ADDRESS = 128;

const SCHEME = /^([a-z][a-z0-9+.-]*):(?:\/\/)?/i;
const ADDRESS = /^[A-Za-z0-9_-]+$/;

/**
 * The payout address in a scanned QR code, or undefined when it holds no address (a web link,
 * free text, an empty code). EIP-681 token transfers give the receiver, not the contract.
 */
export function addressFromWalletQr(scanned: string): string | undefined {
  const text = scanned.trim();
  if (text === '' || text.length > 2048) return undefined;
  const scheme = SCHEME.exec(text);
  if (!scheme) return plainAddress(text);
  const name = scheme[1]!.toLowerCase();
  if (name === 'http' || name === 'https' || name === 'mailto' || name === 'tg') return undefined;
  const rest = text.slice(scheme[0].length);
  const queryAt = rest.indexOf('?');
  const target = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : rest.slice(queryAt + 1));
  // EIP-681: `<contract>[@chain]/transfer?address=<receiver>&uint256=…`.
  const [beforeFunction = '', functionName] = target.split('/');
  if (functionName === 'transfer') {
    const receiver = query.get('address');
    return receiver === null ? undefined : plainAddress(receiver);
  }
  // TON: `ton://transfer/<address>`.
  if (beforeFunction === 'transfer' && functionName !== undefined) {
    return plainAddress(functionName);
  }
  // `pay-0x…` (EIP-681's optional prefix) and `@chain` (its chain id) are not the address.
  const address = beforeFunction.replace(/^pay-/i, '').split('@')[0] ?? '';
  return plainAddress(decodeOrSelf(address));
}

function plainAddress(text: string): string | undefined {
  const address = text.trim();
  return address.length > 0 && address.length <= MAX_ADDRESS && ADDRESS.test(address)
    ? address
    : undefined;
}

function decodeOrSelf(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
