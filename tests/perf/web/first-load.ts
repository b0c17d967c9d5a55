import { gzipSync } from 'node:zlib';

/*
 * First-load JavaScript: the scripts a page runs before anyone touches it. Two views that the
 * report compares:
 * - declared: what the server-rendered HTML asks for (`<link rel=modulepreload>`, `<script src>`,
 *   the imports of its inline module scripts), closed over the static imports of each built
 *   module (the browser must fetch those before the module runs);
 * - loaded: the same-origin scripts Lighthouse saw during the load (this adds what the page
 *   imports lazily right after it mounts).
 * Sizes are gzip (zlib level 6, what a compressing server sends) of the files on disk.
 */

export interface DocumentScripts {
  /** `<link rel="modulepreload" href>` in document order. */
  modulepreloads: string[];
  /** `<script src>` (classic or module). */
  scriptSrcs: string[];
  /** Static and immediate dynamic imports of inline module scripts. */
  inlineImports: string[];
  /** The text of every inline script, classic or module. */
  inlineScripts: string[];
}

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);

const decodeEntities = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");

/** The leading `import … from "x"` / `import "x"` / `export … from "x"` statements of a module. */
export function staticImportsOf(code: string): string[] {
  const statement = /^[\s;]*(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?(["'`])([^"'`]+)\1/;
  const imports: string[] = [];
  let rest = code;
  for (;;) {
    const match = statement.exec(rest);
    if (!match) break;
    imports.push(match[2]!);
    rest = rest.slice(match[0].length);
  }
  return imports;
}

/** `import("x")` with a literal specifier anywhere in a script (an inline bootstrap calls it at once). */
export function literalDynamicImportsOf(code: string): string[] {
  return [...code.matchAll(/\bimport\(\s*(["'`])([^"'`]+)\1\s*\)/g)].map((match) => match[2]!);
}

/** The scripts a server-rendered document declares. */
export function documentScripts(html: string): DocumentScripts {
  const result: DocumentScripts = {
    modulepreloads: [],
    scriptSrcs: [],
    inlineImports: [],
    inlineScripts: [],
  };
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = match[0];
    if (attribute(tag, 'rel')?.toLowerCase() !== 'modulepreload') continue;
    const href = attribute(tag, 'href');
    if (href) result.modulepreloads.push(decodeEntities(href));
  }
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const open = `<script${match[1]}>`;
    const src = attribute(open, 'src');
    const type = attribute(open, 'type')?.toLowerCase();
    if (src) {
      result.scriptSrcs.push(decodeEntities(src));
      continue;
    }
    const body = match[2]!;
    if (type !== undefined && type !== 'module' && !type.includes('javascript')) continue;
    result.inlineScripts.push(body);
    if (type === 'module') {
      result.inlineImports.push(...staticImportsOf(body), ...literalDynamicImportsOf(body));
    }
  }
  return result;
}

/** A specifier resolved against the URL path of the module that imports it. */
export function resolveSpecifier(specifier: string, fromPath: string): string | undefined {
  if (/^[a-z][\w+.-]*:/i.test(specifier) && !specifier.startsWith('http')) return undefined;
  const url = new URL(specifier, new URL(fromPath, 'http://page.invalid'));
  return url.origin === 'http://page.invalid' ? url.pathname : url.href;
}

export interface FirstLoadScripts {
  /** Every script URL path of the first load, in discovery order. */
  scripts: string[];
  /** Scripts the modules import that the document neither names nor modulepreloads. */
  notPreloaded: string[];
  /** Declared scripts whose file was not found (neither read nor gzipped). */
  unreadable: string[];
}

/**
 * The document's scripts closed over static imports. `read` gives a script's code by URL path
 * (undefined when it is not one of ours).
 */
export function firstLoadScripts(
  html: string,
  documentPath: string,
  read: (urlPath: string) => string | undefined,
): FirstLoadScripts {
  const declared = documentScripts(html);
  const roots = [...declared.scriptSrcs, ...declared.inlineImports, ...declared.modulepreloads]
    .map((specifier) => resolveSpecifier(specifier, documentPath))
    .filter((value): value is string => value !== undefined);
  // What the document names itself starts loading at once; only what the modules import needs
  // a modulepreload to avoid a waterfall.
  const preloaded = new Set(roots);
  const seen = new Set<string>();
  const unreadable: string[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const code = read(next);
    if (code === undefined) {
      unreadable.push(next);
      continue;
    }
    for (const specifier of staticImportsOf(code)) {
      const resolved = resolveSpecifier(specifier, next);
      if (resolved && !seen.has(resolved)) queue.push(resolved);
    }
  }
  const scripts = [...seen];
  return {
    scripts,
    notPreloaded: scripts.filter(
      (script) => !preloaded.has(script) && !unreadable.includes(script),
    ),
    unreadable,
  };
}

export const gzipBytes = (content: string | Buffer): number => gzipSync(content).length;

export const kib = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;
