import { requiredText } from '../http/arguments.ts';
import type { ActionContext } from '../http/payload.ts';

/** The `RequisitesCheck` output. */
export interface RequisitesCheck {
  value: string;
  verdict: 'active' | 'retired' | 'unknown';
  kind: 'deposit_address' | 'bank_account' | null;
  currency: string | null;
}

/**
 * `checkRequisites` (public; decision 015): is this deposit address, IBAN or account number one
 * the service gave out as payment details? Spaces are ignored; bank account numbers are
 * compared in upper case (as stored), addresses exactly (many are case-sensitive).
 *
 * - a bank account: `active` while the account is active, else `retired`;
 * - a deposit address: `active` while an order waiting for payment uses it or it was given out
 *   in the last 30 days (operators reuse the service's wallets), `retired` when only older
 *   orders had it.
 *
 * It says only whether a value the asker already holds is ours, and which currency, never
 * anything about the orders behind it.
 */
export async function checkRequisites(options: ActionContext): Promise<RequisitesCheck> {
  const value = requiredText(options.input, 'value', 200).replace(/\s+/g, '');
  const accountNumber = value.toUpperCase();
  const { pool } = options;

  const account = await pool.query<{ currency: string; active: boolean }>(
    `SELECT currency_code AS currency, is_active AS active FROM public.bank_accounts
      WHERE account_number = $1 ORDER BY is_active DESC LIMIT 1`,
    [accountNumber],
  );
  const bank = account.rows[0];
  if (bank) {
    return {
      value: accountNumber,
      verdict: bank.active ? 'active' : 'retired',
      kind: 'bank_account',
      currency: bank.currency,
    };
  }
  const deposit = await pool.query<{ currency: string; active: boolean }>(
    `SELECT send_currency AS currency,
            status = 'waiting_for_payment' OR requisites_at > $2::timestamptz - interval '30 days' AS active
       FROM public.transactions WHERE deposit_address = $1
      ORDER BY (status = 'waiting_for_payment') DESC, requisites_at DESC NULLS LAST LIMIT 1`,
    [value, options.now.toISOString()],
  );
  const address = deposit.rows[0];
  if (address) {
    return {
      value,
      verdict: address.active ? 'active' : 'retired',
      kind: 'deposit_address',
      currency: address.currency,
    };
  }
  return { value, verdict: 'unknown', kind: null, currency: null };
}
