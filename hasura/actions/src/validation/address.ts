import { createRequire } from 'node:module';

/** The part of multicoin-address-validator (CommonJS without types) used here. */
interface AddressValidator {
  validate(
    address: string,
    currency: string,
    options?: { networkType?: 'prod' | 'testnet' | 'both' },
  ): boolean;
}
const WAValidator = createRequire(import.meta.url)(
  'multicoin-address-validator',
) as AddressValidator;

/*
 * Payout address checks per network (public.currencies.network). Networks the maintained
 * validator (multicoin-address-validator) knows are checked by it, checksums included; the
 * five it does not know (TON, ATOM, NEAR, KAS, SUI) get the careful checks below, with a
 * checksum where the format has one (TON's CRC16, Cosmos's bech32).
 */

/** Validator symbol per network; EVM chains share Ethereum's (EIP-55 checksum when mixed case). */
const VALIDATOR_SYMBOL: Readonly<Record<string, string>> = {
  BTC: 'btc',
  TRC20: 'trx',
  ERC20: 'eth',
  BEP20: 'eth',
  AVAXC: 'eth',
  POLYGON: 'eth',
  ARBITRUM: 'eth',
  OPTIMISM: 'eth',
  ETC: 'etc',
  XMR: 'xmr',
  LTC: 'ltc',
  SOL: 'sol',
  DOGE: 'doge',
  XRP: 'xrp',
  BCH: 'bch',
  ADA: 'ada',
  XLM: 'xlm',
  DOT: 'dot',
  DASH: 'dash',
  ZEC: 'zec',
  ALGO: 'algo',
  XTZ: 'xtz',
  EOS: 'eos',
  APT: 'apt',
  HBAR: 'hbar',
};

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** BIP-173 bech32 checksum (Cosmos addresses use bech32, not bech32m). */
function isBech32(address: string, prefix: string): boolean {
  if (address !== address.toLowerCase() || address.length > 90) return false;
  const separator = address.lastIndexOf('1');
  if (address.slice(0, separator) !== prefix || address.length - separator - 1 < 6) return false;
  const data: number[] = [];
  for (const char of address.slice(separator + 1)) {
    const value = BECH32_CHARSET.indexOf(char);
    if (value < 0) return false;
    data.push(value);
  }
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  const values = [
    ...[...prefix].map((char) => char.charCodeAt(0) >> 5),
    0,
    ...[...prefix].map((char) => char.charCodeAt(0) & 31),
    ...data,
  ];
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let bit = 0; bit < 5; bit += 1) if ((top >>> bit) & 1) checksum ^= generators[bit]!;
  }
  return checksum === 1;
}

/** CRC-16/XMODEM, the checksum of TON's user-friendly addresses. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/**
 * TON: raw `workchain:hex64` (workchain 0 or -1), or user-friendly: 48 base64/base64url
 * characters encoding 36 bytes (tag, workchain, 32-byte hash, CRC16 of the first 34).
 */
function isTonAddress(address: string): boolean {
  if (/^(0|-1):[0-9a-fA-F]{64}$/.test(address)) return true;
  if (!/^[A-Za-z0-9_-]{48}$/.test(address) && !/^[A-Za-z0-9+/]{48}$/.test(address)) return false;
  const bytes = Buffer.from(address.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) return false;
  const tag = bytes[0]! & 0x7f; // 0x80 marks test-only addresses
  if (tag !== 0x11 && tag !== 0x51) return false; // bounceable, non-bounceable
  if ((bytes[0]! & 0x80) !== 0) return false; // testnet address on the main network
  const workchain = bytes[1]!;
  if (workchain !== 0x00 && workchain !== 0xff) return false;
  return crc16(bytes.subarray(0, 34)) === bytes.readUInt16BE(34);
}

/** Checks of networks the validator does not know. */
const FORMAT_CHECKS: Readonly<Record<string, (address: string) => boolean>> = {
  TON: isTonAddress,
  ATOM: (address) => isBech32(address, 'cosmos'),
  // Implicit accounts (64 hex) or named accounts (NEAR's account-id rules, 2..64 characters).
  NEAR: (address) =>
    /^[0-9a-f]{64}$/.test(address) ||
    (address.length >= 2 &&
      address.length <= 64 &&
      /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/.test(address)),
  // Format only (Kaspa's cashaddr-style checksum is not verified): prefix, version, payload.
  KAS: (address) => /^kaspa:[qpr][qpzry9x8gf2tvdw0s3jn54khce6mua7l]{60,62}$/.test(address),
  // Format only: a 32-byte account address in hex (no checksum exists).
  SUI: (address) => /^0x[0-9a-fA-F]{64}$/.test(address),
};

/**
 * Whether `address` is a main-network payout address of `network`. Unknown networks are
 * refused: a currency on a new network needs a check here before it can be received.
 */
export function isValidAddress(network: string, address: string): boolean {
  if (address !== address.trim() || address.length < 10 || address.length > 128) return false;
  const symbol = VALIDATOR_SYMBOL[network];
  if (symbol) {
    try {
      return WAValidator.validate(address, symbol, { networkType: 'prod' });
    } catch {
      return false;
    }
  }
  const check = FORMAT_CHECKS[network];
  return check ? check(address) : false;
}
