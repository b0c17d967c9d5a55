import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Plugin } from 'vite';

/*
 * The browser waits for its locale's catalogs before it hydrates (client/src/i18n), and the
 * catalogs are a chunk of their own per locale, imported on demand: without help the browser
 * learns of that chunk only once the shell has run, a round trip after the page's other scripts.
 * This plugin gives the server build `virtual:catalog-preloads`, the chunk and its imports per
 * locale, read from the browser build's Vite manifest (React Router builds the browser first and
 * keeps the manifest until both builds are done), so the page can preload its own language
 * (root.tsx). In development the dev server serves modules unbundled: the map is empty.
 */

export const CATALOG_PRELOADS_ID = 'virtual:catalog-preloads';
const RESOLVED_ID = `\0${CATALOG_PRELOADS_ID}`;

/** The catalogs module of each locale, as the manifest names it (relative to web/). */
const CATALOG_SOURCES = {
  en: '../shared/src/i18n/resources/en.ts',
  ru: '../shared/src/i18n/resources/ru.ts',
  ua: '../shared/src/i18n/resources/ua.ts',
} as const;

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The chunk of `source` and every chunk it imports statically, as URL paths. */
export function chunkClosure(manifest: Record<string, ManifestChunk>, source: string): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the browser build's manifest has no ${key}`);
    files.push(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(source);
  return files;
}

export function catalogPreloads(): Plugin {
  return {
    name: 'catalog-preloads',
    resolveId(id) {
      return id === CATALOG_PRELOADS_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { config } = this.environment;
      const manifestFile = path.join(
        path.dirname(config.build.outDir),
        'client',
        '.vite',
        'manifest.json',
      );
      if (config.command !== 'build' || config.consumer !== 'server') return 'export default {};';
      if (!existsSync(manifestFile))
        throw new Error(`no browser build manifest at ${manifestFile}`);
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<
        string,
        ManifestChunk
      >;
      const preloads = Object.fromEntries(
        Object.entries(CATALOG_SOURCES).map(([locale, source]) => [
          locale,
          chunkClosure(manifest, source),
        ]),
      );
      return `export default ${JSON.stringify(preloads)};`;
    },
  };
}
