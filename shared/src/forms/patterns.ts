/*
 * The shapes of the contract's free-text values, once for the clients and the servers. They
 * catch the common mistakes; the actions service checks an address for its network and an
 * IBAN's checksum on top.
 */

/** Wallet addresses: 10 to 128 characters without spaces on every network (the orders CHECK). */
export const WALLET_ADDRESS = /^\S{10,128}$/;

/** An IBAN in its electronic form: country, check digits, 11 to 30 letters and digits. */
export const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** An IBAN as people type it (grouped, lower case) in its electronic form. */
export const electronicIban = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/** A USDT amount as the affiliate actions take it: up to six decimals, as bonuses accrue. */
export const USDT_AMOUNT = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,6})?$/;

/** Memos and destination tags: at most 64 characters (the orders table's CHECK). */
export const MEMO_MAX_LENGTH = 64;

/** Spec section 5: 3 to 20 letters and digits (the database's portal_users_referral_name_format). */
export const REFERRAL_NAME = /^[A-Za-z0-9]{3,20}$/;
