/*
 * The exchange's framework-free pieces every client and the bot share: amounts as decimal
 * strings, currency labels, the currency search, the catalog's types, the starting pair, the
 * address in a wallet's QR code, and the networks' explorer links and payment URIs (decision 042).
 */
export * from './amounts.ts';
export * from './chains.ts';
export * from './currency-label.ts';
export * from './currency-search.ts';
export * from './explorer-links.ts';
export * from './payment-uri.ts';
export * from './starting-pair.ts';
export * from './types.ts';
export * from './wallet-qr.ts';
