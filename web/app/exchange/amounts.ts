/*
 * Amounts stay decimal strings from the input to the API: nothing here turns one into a float.
 */

const AMOUNT = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;

/** What a person typed, with a decimal comma accepted and spaces dropped; '' when empty. */
export function normalizeAmount(typed: string): string {
  return typed.replace(/\s/g, '').replace(',', '.');
}

/** A positive decimal with at most `precision` decimals. */
export function isValidAmount(amount: string, precision: number): boolean {
  if (!AMOUNT.test(amount)) return false;
  const decimals = amount.split('.')[1]?.length ?? 0;
  return decimals <= precision && /[1-9]/.test(amount);
}

/** `0.10000000` → `0.1`, `12.000` → `12`. */
export function trimZeros(amount: string): string {
  return amount.includes('.') ? amount.replace(/0+$/, '').replace(/\.$/, '') : amount;
}
