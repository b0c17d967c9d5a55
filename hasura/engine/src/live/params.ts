/*
 * How one subscriber's statement parameters travel in a multiplexed live query: as one JSON
 * array per subscriber (its "variables row"), read back in SQL with `->>` and cast to the type
 * the compiler asked for. `->>` yields text, so every value is encoded as the text Postgres
 * would parse for that type, exactly as node-postgres would have sent it as `$n`.
 */

/** `"..."` with the two characters Postgres' array parser treats specially escaped. */
const quoteArrayElement = (text: string) =>
  `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** A scalar as the text Postgres parses (what node-postgres sends for `$n`). */
function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  return JSON.stringify(value);
}

/** A JS array as a Postgres array literal (`{"1","2",NULL}`), nested arrays as sub-arrays. */
export function postgresArrayLiteral(values: readonly unknown[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return postgresArrayLiteral(value);
    return quoteArrayElement(scalarText(value));
  });
  return `{${items.join(',')}}`;
}

/** One parameter as a JSON value: null stays null, arrays become array literals, the rest text. */
export function paramJson(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return postgresArrayLiteral(value);
  return scalarText(value);
}

/** A subscriber's parameters as the JSON array text its variables row holds. */
export function variablesRow(params: readonly unknown[]): string {
  return JSON.stringify(params.map(paramJson));
}

/** Alias of the subscribers relation in a multiplexed statement (`id`, `vars`). */
export const SUBSCRIBERS_ALIAS = '"_lq_s"';
/** Alias of each subscriber's result. */
export const RESULT_ALIAS = '"_lq_r"';

/** How the compiler renders parameter `index` (1-based): a field of the subscriber's row. */
export function renderRowParam(index: number, cast: string | undefined): string {
  const text = `(${SUBSCRIBERS_ALIAS}."vars"->>${index - 1})`;
  return cast ? `(${text}::${cast})` : text;
}
