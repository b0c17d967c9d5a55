import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Result } from 'lighthouse';

import { firstLoadScripts, gzipBytes, kib } from '../web/first-load.ts';
import type { LighthouseRun, LoadedResource } from '../web/lighthouse.ts';
import type { ManifestChunk, ViteManifest } from './build.ts';

/*
 * What the mini-app loads before its first render, two ways:
 *
 * - observed (the figure reported): the same-origin scripts and stylesheets whose request
 *   started before the first contentful paint Chromium observed in the Lighthouse run, in at
 *   least half the runs. The page is blank until React's first render (index.html has no text),
 *   and main.tsx renders only after the launch and `await loadCatalog(locale)`, so these are the
 *   entry, its static imports, the development launch's dev-client chunk and the locale chunk.
 *   The dev-client is counted apart: a launch inside Telegram never loads it.
 * - expected, from Vite's manifest: the entry (index.html) closed over its static imports, plus
 *   the English resources chunk (shared/src/i18n/resources/en.ts) and what it imports, with
 *   their CSS. A cross-check: the two should name the same files.
 *
 * Sizes are gzip (zlib level 6) of the built files, KB = 1,024 bytes, as bench:web counts them.
 */

export type ChunkRole = 'entry' | 'locale' | 'dev-client' | 'lazy';

/** The modules that mark the chunks main.tsx loads before rendering, beside the entry's. */
const LOCALE_SOURCE = /(?:^|\/)i18n\/resources\/en\.ts$/;
const DEV_CLIENT_SOURCE = /(?:^|\/)telegram\/dev-client\.ts$/;

export interface Files {
  /** Build-relative paths (assets/x.js). */
  scripts: string[];
  styles: string[];
}

export interface ManifestPlan {
  entry: Files;
  /** The English resources chunk (and what it imports beyond the entry). */
  locale: Files | null;
  /** The development launch's stand-in Telegram client. */
  devClient: Files | null;
  /** Every built script and stylesheet with its role; what is neither of the above is lazy. */
  roles: Map<string, ChunkRole>;
}

/** A chunk closed over its static imports, with the CSS of each. */
export function manifestClosure(manifest: ViteManifest, key: string): Files {
  const files: Files = { scripts: [], styles: [] };
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const chunk = manifest[current];
    if (!chunk) throw new Error(`the Vite manifest has no chunk ${current}`);
    files.scripts.push(chunk.file);
    for (const css of chunk.css ?? []) if (!files.styles.includes(css)) files.styles.push(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return files;
}

const without = (files: Files, known: Files): Files => ({
  scripts: files.scripts.filter((file) => !known.scripts.includes(file)),
  styles: files.styles.filter((file) => !known.styles.includes(file)),
});

/** The entry, the locale chunk and the dev-client as the manifest describes them. */
export function planFromManifest(manifest: ViteManifest): ManifestPlan {
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (entries.length !== 1) {
    throw new Error(`expected one entry in the Vite manifest, found ${entries.length}`);
  }
  const [entryKey] = entries[0]!;
  const entry = manifestClosure(manifest, entryKey);
  // Dynamic imports of the entry or of any chunk it loads statically (the locale loader may
  // live in a shared chunk rather than in the entry's own module).
  const entryChunks = Object.entries(manifest).filter(([, chunk]) =>
    entry.scripts.includes(chunk.file),
  );
  const dynamicImports = entryChunks.flatMap(([, chunk]) => chunk.dynamicImports ?? []);
  const dynamic = (source: RegExp): Files | null => {
    const key = dynamicImports.find((candidate) =>
      source.test(manifest[candidate]?.src ?? candidate),
    );
    return key ? without(manifestClosure(manifest, key), entry) : null;
  };
  const locale = dynamic(LOCALE_SOURCE);
  const devClient = dynamic(DEV_CLIENT_SOURCE);
  const roles = new Map<string, ChunkRole>();
  const assign = (files: Files | null, role: ChunkRole) => {
    for (const file of [...(files?.scripts ?? []), ...(files?.styles ?? [])]) {
      if (!roles.has(file)) roles.set(file, role);
    }
  };
  assign(entry, 'entry');
  assign(locale, 'locale');
  assign(devClient, 'dev-client');
  for (const chunk of Object.values<ManifestChunk>(manifest)) {
    if (chunk.file.endsWith('.js')) assign({ scripts: [chunk.file], styles: [] }, 'lazy');
    assign({ scripts: [], styles: chunk.css ?? [] }, 'lazy');
  }
  return { entry, locale, devClient, roles };
}

/**
 * The first contentful paint Chromium observed, in ms on the clock of the `network-requests`
 * audit (from its first request), or null when the trace had none.
 */
export function observedFcpMs(lhr: Result): number | null {
  const metrics = lhr.audits['metrics']?.details as
    { items?: Array<{ observedFirstContentfulPaintTs?: number }> } | undefined;
  const network = lhr.audits['network-requests']?.details as
    { debugData?: { networkStartTimeTs?: number } } | undefined;
  const fcpTs = metrics?.items?.[0]?.observedFirstContentfulPaintTs;
  const startTs = network?.debugData?.networkStartTimeTs;
  if (typeof fcpTs !== 'number' || typeof startTs !== 'number') return null;
  return Math.round((fcpTs - startTs) / 1000);
}

export type AssetKind = 'script' | 'style';

const KIND_OF: Record<string, AssetKind> = { Script: 'script', Stylesheet: 'style' };

/** One run's same-origin scripts and stylesheets under `base`, split at the observed FCP. */
export interface RunSplit {
  fcp_ms: number | null;
  /** URL paths whose request started before the paint. */
  before: string[];
  after: string[];
}

export function splitAtFcp(
  resources: LoadedResource[],
  fcpMs: number | null,
  origin: string,
  base: string,
): RunSplit {
  const split: RunSplit = { fcp_ms: fcpMs, before: [], after: [] };
  for (const resource of resources) {
    if (!KIND_OF[resource.resourceType] || !resource.url.startsWith(`${origin}${base}`)) continue;
    const urlPath = new URL(resource.url).pathname;
    // No paint observed: everything the load fetched counts (an upper bound).
    (fcpMs === null || resource.startMs < fcpMs ? split.before : split.after).push(urlPath);
  }
  return split;
}

/** URL paths that started before the paint in at least half the runs, with how many runs. */
export function countedBeforeFcp(splits: RunSplit[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const split of splits) {
    for (const urlPath of new Set(split.before))
      counts.set(urlPath, (counts.get(urlPath) ?? 0) + 1);
  }
  const needed = Math.ceil(splits.length / 2);
  return new Map([...counts].filter(([, runs]) => runs >= needed));
}

export interface AssetSize {
  /** URL path. */
  path: string;
  kind: AssetKind;
  role: ChunkRole | 'unknown';
  bytes: number;
  gzip_bytes: number;
  /** Bytes on the wire as served (brotli or gzip), from the first run that loaded it. */
  transfer_bytes: number | null;
  /** Runs in which its request started before the first contentful paint. */
  before_fcp_runs: number;
}

export interface MiniappFirstLoad {
  /** Scripts before the first render, without the dev-client, largest first. */
  js: AssetSize[];
  css: AssetSize[];
  /** The development launch's scripts (not shipped to launches inside Telegram). */
  dev_client: AssetSize[];
  js_kb_gzip: number;
  js_kb_raw: number;
  css_kb_gzip: number;
  css_kb_raw: number;
  dev_client_kb_gzip: number;
  js_with_dev_client_kb_gzip: number;
  /** JS and CSS before the first render as served (brotli or gzip), without the dev-client. */
  transfer_kb: number;
  /** Same-origin scripts and styles that started after the paint in most runs (lazy). */
  after_fcp: string[];
  /** The cross-check against Vite's manifest. */
  manifest: {
    js_kb_gzip: number;
    css_kb_gzip: number;
    scripts: string[];
    styles: string[];
    /** Observed before the paint, not expected (URL paths). */
    only_observed: string[];
    /** Expected, not observed before the paint. */
    only_expected: string[];
    matches: boolean;
  };
  /** What index.html declares (module script and modulepreloads) closed over static imports. */
  declared: { scripts: string[]; not_preloaded: string[] };
  per_run: RunSplit[];
}

/** The build's files by URL path: `${base}assets/x.js` is `<buildDir>/assets/x.js`. */
export function buildReader(buildDir: string, base: string) {
  const root = path.resolve(buildDir);
  return (urlPath: string): Buffer | undefined => {
    if (!urlPath.startsWith(base)) return undefined;
    const file = path.join(root, path.normalize(urlPath.slice(base.length)));
    if (!file.startsWith(root + path.sep) || !existsSync(file)) return undefined;
    return readFileSync(file);
  };
}

const sumKib = (assets: AssetSize[], key: 'bytes' | 'gzip_bytes') =>
  kib(assets.reduce((sum, asset) => sum + asset[key], 0));

/** Sizes of every built script and stylesheet, largest (gzip) first. */
export function buildChunks(
  plan: ManifestPlan,
  buildDir: string,
  base: string,
): Array<{ path: string; role: ChunkRole; bytes: number; gzip_bytes: number }> {
  const read = buildReader(buildDir, base);
  return [...plan.roles]
    .map(([file, role]) => {
      const content = read(`${base}${file}`);
      return {
        path: `${base}${file}`,
        role,
        bytes: content?.length ?? 0,
        gzip_bytes: content ? gzipBytes(content) : 0,
      };
    })
    .sort((a, b) => b.gzip_bytes - a.gzip_bytes);
}

/** The first-load figures of the mini-app from its runs, its build and its document. */
export function miniappFirstLoad(options: {
  runs: LighthouseRun[];
  origin: string;
  /** The app's base path with a trailing slash: /telegram-app/. */
  base: string;
  buildDir: string;
  plan: ManifestPlan;
  html: string;
}): MiniappFirstLoad {
  const { base, plan } = options;
  const read = buildReader(options.buildDir, base);
  const splits = options.runs.map((run) =>
    splitAtFcp(run.resources, observedFcpMs(run.lhr), options.origin, base),
  );
  const counted = countedBeforeFcp(splits);
  const transfer = new Map<string, number>();
  for (const run of options.runs) {
    for (const resource of run.resources) {
      if (!resource.url.startsWith(options.origin)) continue;
      const urlPath = new URL(resource.url).pathname;
      if (!transfer.has(urlPath)) transfer.set(urlPath, resource.transferSize);
    }
  }
  const sizes: AssetSize[] = [...counted].map(([urlPath, runs]) => {
    const content = read(urlPath);
    if (!content) throw new Error(`${urlPath} loaded before the paint but is not in the build`);
    return {
      path: urlPath,
      kind: urlPath.endsWith('.css') ? 'style' : 'script',
      role: plan.roles.get(urlPath.slice(base.length)) ?? 'unknown',
      bytes: content.length,
      gzip_bytes: gzipBytes(content),
      transfer_bytes: transfer.get(urlPath) ?? null,
      before_fcp_runs: runs,
    };
  });
  const largestFirst = (a: AssetSize, b: AssetSize) => b.gzip_bytes - a.gzip_bytes;
  const js = sizes
    .filter((asset) => asset.kind === 'script' && asset.role !== 'dev-client')
    .sort(largestFirst);
  const css = sizes.filter((asset) => asset.kind === 'style').sort(largestFirst);
  const devClient = sizes.filter((asset) => asset.role === 'dev-client').sort(largestFirst);

  const expected = {
    scripts: [...plan.entry.scripts, ...(plan.locale?.scripts ?? [])].map((file) => base + file),
    styles: [...plan.entry.styles, ...(plan.locale?.styles ?? [])].map((file) => base + file),
  };
  const expectedAll = [...expected.scripts, ...expected.styles];
  const observedAll = [...js, ...css].map((asset) => asset.path);
  const gzipOf = (urlPath: string) => {
    const content = read(urlPath);
    return content ? gzipBytes(content) : 0;
  };
  const onlyObserved = observedAll.filter((urlPath) => !expectedAll.includes(urlPath));
  const onlyExpected = expectedAll.filter((urlPath) => !observedAll.includes(urlPath));

  const afterFcp = new Set(splits.flatMap((split) => split.after));
  const declared = firstLoadScripts(options.html, base, (urlPath) => read(urlPath)?.toString());
  return {
    js,
    css,
    dev_client: devClient,
    js_kb_gzip: sumKib(js, 'gzip_bytes'),
    js_kb_raw: sumKib(js, 'bytes'),
    css_kb_gzip: sumKib(css, 'gzip_bytes'),
    css_kb_raw: sumKib(css, 'bytes'),
    dev_client_kb_gzip: sumKib(devClient, 'gzip_bytes'),
    js_with_dev_client_kb_gzip: sumKib([...js, ...devClient], 'gzip_bytes'),
    transfer_kb: kib([...js, ...css].reduce((sum, asset) => sum + (asset.transfer_bytes ?? 0), 0)),
    after_fcp: [...afterFcp].filter((urlPath) => !counted.has(urlPath)),
    manifest: {
      js_kb_gzip: kib(expected.scripts.reduce((sum, urlPath) => sum + gzipOf(urlPath), 0)),
      css_kb_gzip: kib(expected.styles.reduce((sum, urlPath) => sum + gzipOf(urlPath), 0)),
      scripts: expected.scripts,
      styles: expected.styles,
      only_observed: onlyObserved,
      only_expected: onlyExpected,
      matches: onlyObserved.length === 0 && onlyExpected.length === 0,
    },
    declared: { scripts: declared.scripts, not_preloaded: declared.notPreloaded },
    per_run: splits,
  };
}
