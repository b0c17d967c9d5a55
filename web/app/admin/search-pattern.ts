/**
 * A search text as a Hasura `_ilike` pattern that matches it anywhere: `\`, `%` and `_` are
 * escaped so they match themselves (decision 012). The console's e-mail and username searches
 * and their tests share this one rule.
 */
export const containsPattern = (search: string): string =>
  `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
