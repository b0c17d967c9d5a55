import Papa from 'papaparse';

import type {
  StaffOrdersExportQuery,
  StaffWithdrawalsExportQuery,
} from '@app/client/graphql/generated/manager.ts';

/*
 * The staff console's CSV files (issue 23, decision 044). Papa Parse does the quoting (RFC 4180:
 * a cell with a comma, quote or line break is quoted, quotes doubled). On top of it:
 *
 * - Formula injection: customers type names, reasons and e-mails, and a spreadsheet runs a cell
 *   that starts with = + - @ (or a tab or CR before one) as a formula. Such a cell gets a
 *   leading ' (OWASP's advice), which the spreadsheet shows as text. Papa Parse's own default
 *   pattern ends in `.*$` without the s flag, so a value with a line break slipped past it; the
 *   pattern here looks at the first character only.
 * - Amounts are the engine's exact decimal strings (numeric is stringified), never numbers.
 * - Instants are ISO 8601 in UTC (`2026-11-28T15:04:05.123Z`), whatever the browser's zone.
 * - The file starts with a byte order mark, so Excel reads it as UTF-8 (Cyrillic names).
 *
 * Column names are the data's field names in English, the same in every language of the
 * console, so a spreadsheet or script built on one export reads the next.
 */

/** An export holds at most this many rows; above it the staff narrow the filter. */
export const EXPORT_MAX_ROWS = 50_000;
/** Rows fetched per request. */
export const EXPORT_PAGE_SIZE = 1_000;

const BOM = '\uFEFF';
const FORMULA = /^[=+\-@\t\r]/;

export type Cell = string | null | undefined;

/** The instant as ISO 8601 UTC; empty when there is none. */
export function isoUtc(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** The rows as CSV text, header first, with the byte order mark and CRLF line ends. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const body = Papa.unparse(
    {
      fields: [...header],
      data: rows.map((row) => row.map((cell) => cell ?? '')),
    },
    { escapeFormulae: FORMULA, newline: '\r\n', quotes: false },
  );
  return `${BOM}${body}\r\n`;
}

type ExportOrder = StaffOrdersExportQuery['transactions'][number];
type ExportWithdrawal = StaffWithdrawalsExportQuery['bonus_withdrawals'][number];

export const ORDER_COLUMNS = [
  'number',
  'id',
  'status',
  'created_at',
  'updated_at',
  'paid_at',
  'completed_at',
  'canceled_at',
  'send_currency',
  'send_amount',
  'receive_currency',
  'receive_amount',
  'received_amount',
  'settled_receive_amount',
  'rate',
  'amount_usdt',
  'email',
  'telegram_username',
  'full_name',
  'wallet_address',
  'iban',
  'reason',
  'source',
  'payout_tx_id',
  'refund_tx_id',
  'cancel_reason',
  'hold_category',
  'action_reason',
] as const;

export const orderCells = (order: ExportOrder): Cell[] => [
  order.number,
  order.id,
  order.status,
  isoUtc(order.created_at),
  isoUtc(order.updated_at),
  isoUtc(order.paid_at),
  isoUtc(order.completed_at),
  isoUtc(order.canceled_at),
  order.send_currency,
  order.send_amount,
  order.receive_currency,
  order.receive_amount,
  order.received_amount,
  order.settled_receive_amount,
  order.rate,
  order.amount_usdt,
  order.email,
  order.user?.telegram_username,
  order.full_name,
  order.wallet_address,
  order.iban,
  order.reason,
  order.source,
  order.payout_tx_id,
  order.refund_tx_id,
  order.cancel_reason,
  order.hold_category,
  order.action_reason,
];

export const WITHDRAWAL_COLUMNS = [
  'id',
  'created_at',
  'status',
  'amount_usdt',
  'wallet_address',
  'email',
  'telegram_username',
  'payout_tx_id',
  'reject_reason',
] as const;

export const withdrawalCells = (withdrawal: ExportWithdrawal): Cell[] => [
  withdrawal.id,
  isoUtc(withdrawal.created_at),
  withdrawal.status,
  withdrawal.amount_usdt,
  withdrawal.wallet_address,
  withdrawal.user?.email,
  withdrawal.user?.telegram_username,
  withdrawal.payout_tx_id,
  withdrawal.reject_reason,
];

/** `name-YYYY-MM-DDTHH-MM-SSZ.csv`, the moment of the export in UTC. */
export const exportFileName = (name: string, now: Date = new Date()): string =>
  `${name}-${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z.csv`;

/** Hands the text to the browser as a download. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
