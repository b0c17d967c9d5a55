import * as z from 'zod/mini';

import type { CatalogKey } from '../i18n/resource-types.ts';

import { GENERIC_ERROR } from './auth-errors.ts';
import { MESSAGES, requiredText } from './fields.ts';
import { REFERRAL_NAME, USDT_AMOUNT } from './patterns.ts';

/*
 * The affiliate program's forms (/affiliate-program, spec sections 2, 5 and 9): the referral
 * name that forms the referral link, and a bonus withdrawal (at least 100 USDT, at most the
 * balance, to a TRC20 wallet). The database and the requestBonusWithdrawal action check the same
 * rules again; these show the common mistakes before a round trip. Amounts stay decimal strings.
 */

export const AFFILIATE_MESSAGES = {
  referralName: 'common:validation.referralName',
  invalidAmount: 'account:affiliate.withdraw.errors.invalid-amount',
  belowMinimum: 'account:affiliate.withdraw.errors.below-minimum',
  insufficientBalance: 'account:affiliate.withdraw.errors.insufficient-balance',
  invalidWallet: 'account:affiliate.withdraw.errors.invalid-wallet-address',
} as const satisfies Record<string, CatalogKey>;

/** Spec section 9: the smallest bonus withdrawal, in USDT. */
export const MIN_WITHDRAWAL_USDT = '100';

/** A TRC20 (TRON) address: base58, `T` and 33 more characters. The server checks the checksum. */
const TRC20_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/**
 * Compares two non-negative decimal strings exactly (no floats): -1, 0 or 1. Both must be plain
 * decimals such as `100`, `0.5` or `12.000000`.
 */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const [aInt = '0', aFrac = ''] = a.split('.');
  const [bInt = '0', bFrac = ''] = b.split('.');
  const width = Math.max(aFrac.length, bFrac.length);
  const scaled = (int: string, frac: string) => BigInt(int + frac.padEnd(width, '0'));
  const left = scaled(aInt, aFrac);
  const right = scaled(bInt, bFrac);
  return left === right ? 0 : left < right ? -1 : 1;
}

/** The edit-name dialog: a new referral name. */
export const ReferralNameForm = z.object({
  referralName: requiredText().check(
    z.refine((value) => value === '' || REFERRAL_NAME.test(value), AFFILIATE_MESSAGES.referralName),
  ),
});
export type ReferralNameForm = z.output<typeof ReferralNameForm>;

/**
 * The withdraw form. `available` is the balance the page shows (a decimal string); left out,
 * only the minimum is checked and the server judges the balance.
 */
export function withdrawalForm(available?: string) {
  return z.object({
    amount: z.string({ error: MESSAGES.required }).check(
      z.overwrite((value) => value.replace(/\s/g, '').replace(',', '.')),
      z.minLength(1, MESSAGES.required),
      z.superRefine((value, ctx) => {
        if (value === '') return;
        const problem = !USDT_AMOUNT.test(value)
          ? AFFILIATE_MESSAGES.invalidAmount
          : compareDecimals(value, MIN_WITHDRAWAL_USDT) < 0
            ? AFFILIATE_MESSAGES.belowMinimum
            : available !== undefined && compareDecimals(value, available) > 0
              ? AFFILIATE_MESSAGES.insufficientBalance
              : undefined;
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
      }),
    ),
    walletAddress: requiredText().check(
      z.refine(
        (value) => value === '' || TRC20_ADDRESS.test(value),
        AFFILIATE_MESSAGES.invalidWallet,
      ),
    ),
  });
}
export type WithdrawalForm = z.output<ReturnType<typeof withdrawalForm>>;

/**
 * Maps a requestBonusWithdrawal error (`extensions.code`, and `field` for `invalid-input`) to
 * the field it belongs to and an i18n key; anything else is the generic error of the form.
 */
export function withdrawalErrorMessage(
  code: string | undefined,
  field?: unknown,
): { field: 'amount' | 'walletAddress' | undefined; message: CatalogKey } {
  switch (code) {
    case 'below-minimum':
      return { field: 'amount', message: AFFILIATE_MESSAGES.belowMinimum };
    case 'insufficient-balance':
      return { field: 'amount', message: AFFILIATE_MESSAGES.insufficientBalance };
    case 'invalid-input':
      if (field === 'walletAddress')
        return { field: 'walletAddress', message: AFFILIATE_MESSAGES.invalidWallet };
      if (field === 'amount') return { field: 'amount', message: AFFILIATE_MESSAGES.invalidAmount };
      return { field: undefined, message: GENERIC_ERROR };
    default:
      return { field: undefined, message: GENERIC_ERROR };
  }
}
