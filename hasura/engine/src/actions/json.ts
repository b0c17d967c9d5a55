/*
 * JSON values with two exact leaves: a number written in the query text (kept as its digits,
 * so a `numeric` literal reaches the handler unrounded) and a JSON text produced by Postgres
 * (spliced into the response as is).
 */

/** A number literal from the query, as written. */
export class RawNumber {
  constructor(readonly text: string) {}
  toJSON(): number {
    return Number(this.text);
  }
}

/** A JSON document already serialised (a relationship's value, filled in from the database). */
export class RawJson {
  constructor(public text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** JSON.stringify that writes RawNumber and RawJson verbatim. */
export function stringifyJson(value: unknown): string {
  if (value instanceof RawNumber || value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map((item) => stringifyJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, item]) => item !== undefined,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stringifyJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  !(value instanceof RawNumber) &&
  !(value instanceof RawJson);
