import type pg from 'pg';

/*
 * Payment details never leave the signed-in order page (docs/decisions/015-order-trust.md):
 * no e-mail and no bot message carries a deposit address, a memo, a payment reference or any
 * part of a bank account. scanForRequisites() loads every such value the database holds and
 * fails when one of them occurs in any of the given messages: case-insensitively, and for
 * account numbers and references also with the spaces taken out of both (an IBAN printed in
 * groups of four is still the IBAN).
 */

/** Anything that runs a query: a pool, a client. */
export type Queryable = Pick<pg.Pool, 'query'>;

export interface Requisite {
  /** `transactions.deposit_address`, `bank_accounts.account_number`, ... */
  column: string;
  value: string;
}

/** Where a message came from (`mail to a@x.example: Order #100042 created`) and its text. */
export interface ScannedMessage {
  where: string;
  text: string;
}

/** Shorter values (a 5-digit memo, a city as a bank address) would match ordinary words. */
export const MIN_REQUISITE_LENGTH = 6;

/** Columns whose values are also looked for with every space removed. */
const SPACE_INSENSITIVE = new Set([
  'bank_accounts.account_number',
  'transactions.payment_reference',
  'bank_accounts.swift_bic',
]);

/** Every non-trivial requisite in the database, deduplicated. */
export async function loadRequisites(db: Queryable): Promise<Requisite[]> {
  const { rows } = await db.query<{ column: string; value: string }>(
    `SELECT DISTINCT column_name AS column, value FROM (
       SELECT 'transactions.deposit_address' AS column_name, deposit_address AS value
         FROM public.transactions
       UNION ALL SELECT 'transactions.deposit_memo', deposit_memo FROM public.transactions
       UNION ALL SELECT 'transactions.payment_reference', payment_reference FROM public.transactions
       UNION ALL SELECT 'bank_accounts.account_number', account_number FROM public.bank_accounts
       UNION ALL SELECT 'bank_accounts.beneficiary', beneficiary FROM public.bank_accounts
       UNION ALL SELECT 'bank_accounts.swift_bic', swift_bic FROM public.bank_accounts
       UNION ALL SELECT 'bank_accounts.bank_address', bank_address FROM public.bank_accounts
     ) AS requisites
     WHERE value IS NOT NULL AND char_length(btrim(value)) >= $1`,
    [MIN_REQUISITE_LENGTH],
  );
  return rows.map((row) => ({ column: row.column, value: row.value.trim() }));
}

const withoutSpaces = (value: string) => value.replace(/\s+/g, '');

/** The requisites that occur in `text` (empty when none does). */
export function requisitesIn(text: string, requisites: readonly Requisite[]): Requisite[] {
  const lower = text.toLowerCase();
  const compact = withoutSpaces(lower);
  return requisites.filter(({ column, value }) => {
    const needle = value.toLowerCase();
    if (lower.includes(needle)) return true;
    return SPACE_INSENSITIVE.has(column) && compact.includes(withoutSpaces(needle));
  });
}

export interface ScanReport {
  /** How many requisites were looked for, by column. */
  requisites: Record<string, number>;
  messages: number;
}

/**
 * Loads the requisites and throws, naming the value, its column and the message, when any of
 * them occurs in any message. Returns what it looked at, so a test can check that the scan
 * was not empty (e.g. that both a deposit address and a bank account were in the database).
 */
export async function scanForRequisites(
  db: Queryable,
  messages: ReadonlyArray<ScannedMessage | string>,
): Promise<ScanReport> {
  const requisites = await loadRequisites(db);
  const found: string[] = [];
  messages.forEach((message, index) => {
    const { where, text } =
      typeof message === 'string' ? { where: `message ${index + 1}`, text: message } : message;
    for (const hit of requisitesIn(text, requisites))
      found.push(`${hit.column} ${JSON.stringify(hit.value)} in ${where}`);
  });
  if (found.length > 0)
    throw new Error(`payment details leaked into messages:\n${found.join('\n')}`);
  const counts: Record<string, number> = {};
  for (const { column } of requisites) counts[column] = (counts[column] ?? 0) + 1;
  return { requisites: counts, messages: messages.length };
}
