/**
 * The small JSON path dialect Hasura accepts in `claims_namespace_path` and `claims_map`
 * (`$`, `$.a.b`, `$.a[0]`, `$['key.with.dots']`, `$["x"]`): keys and array indexes only.
 */
export type JsonPath = readonly (string | number)[];

const NAME_CHAR = /[A-Za-z0-9_-]/;

/** Parses a path; throws an Error with Hasura's hint when the text is not a path. */
export function parseJsonPath(text: string): JsonPath {
  const fail = (): never => {
    throw new Error(
      `${text}. Accept letters, digits, underscore (_) or hyphen (-) only. ` +
        `Use quotes enclosed in bracket (["..."]) if there is any special character`,
    );
  };
  let i = 0;
  if (text.startsWith('$')) i = 1;
  if (i === text.length) return i === 1 ? [] : fail();
  const path: (string | number)[] = [];
  while (i < text.length) {
    const c = text[i]!;
    if (c === '[') {
      i++;
      const quote = text[i];
      if (quote === "'" || quote === '"') {
        const end = text.indexOf(quote, i + 1);
        if (end < 0 || text[end + 1] !== ']') fail();
        path.push(text.slice(i + 1, end));
        i = end + 2;
      } else {
        let j = i;
        while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++;
        if (j === i || text[j] !== ']') fail();
        path.push(Number(text.slice(i, j)));
        i = j + 1;
      }
    } else {
      // `.name`; like Hasura's parser, the dot is optional (`a.b` and `$a` are accepted).
      if (c === '.') i++;
      let j = i;
      while (j < text.length && NAME_CHAR.test(text[j]!)) j++;
      if (j === i) fail();
      path.push(text.slice(i, j));
      i = j;
    }
  }
  return path;
}

/** Prints a path the way Hasura echoes it in error messages (`$.a['b.c'][0]`). */
export function encodeJsonPath(path: JsonPath): string {
  let out = '$';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_-]*$/.test(part)) out += `.${part}`;
    else out += `['${part}']`;
  }
  return out;
}

/** Follows `path` into `value`; `undefined` when a step is missing (as Hasura's `executeJSONPath`). */
export function executeJsonPath(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const part of path) {
    if (typeof part === 'number') {
      if (!Array.isArray(current) || part >= current.length) return undefined;
      current = current[part] as unknown;
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current))
        return undefined;
      if (!Object.hasOwn(current, part)) return undefined;
      current = (current as Record<string, unknown>)[part];
    }
  }
  return current;
}
