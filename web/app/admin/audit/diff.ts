/*
 * Before and after of one audit entry, as a reader compares them: one line per field, the
 * changed ones first, each value as text. The log keeps numbers as the database printed them
 * (strings, decision 045), so nothing here turns an amount into a float.
 */

export type AuditValue =
  | { kind: 'none' }
  | { kind: 'empty' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'text'; value: string };

export interface DiffLine {
  field: string;
  before: AuditValue;
  after: AuditValue;
  changed: boolean;
}

/** Fields every row has that say nothing about the change itself. */
const NOISE = new Set(['updated_at']);

const asRecord = (row: unknown): Record<string, unknown> | undefined =>
  typeof row === 'object' && row !== null && !Array.isArray(row)
    ? (row as Record<string, unknown>)
    : undefined;

/** One stored value as the page shows it. */
export function auditValue(row: Record<string, unknown> | undefined, field: string): AuditValue {
  if (!row || !(field in row)) return { kind: 'none' };
  const value = row[field];
  if (value === null || value === '') return { kind: 'empty' };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'string') return { kind: 'text', value };
  // Numbers arrive as strings; anything else (an array, an object) is shown as JSON.
  return { kind: 'text', value: JSON.stringify(value) };
}

const same = (a: AuditValue, b: AuditValue): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The lines of an entry: every field of either side, changed ones first (in the row's column
 * order), then the unchanged ones; `updated_at` is left out when it is the only thing that moved.
 */
export function auditDiff(before: unknown, after: unknown): DiffLine[] {
  const old = asRecord(before);
  const now = asRecord(after);
  const fields = [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])];
  const lines = fields
    .filter((field) => !NOISE.has(field))
    .map((field) => {
      const line = { field, before: auditValue(old, field), after: auditValue(now, field) };
      // A created or deleted row: every field is what the row held, none "unchanged".
      return { ...line, changed: !old || !now || !same(line.before, line.after) };
    });
  return [...lines.filter((line) => line.changed), ...lines.filter((line) => !line.changed)];
}
