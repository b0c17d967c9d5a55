import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import { run } from '../web/build.ts';

/*
 * The mini-app build the benchmark measures: `npm run build -w miniapp` with MINIAPP_BUILD_DIR
 * pointing at a folder of its own (so a concurrent build of miniapp/dist or the end-to-end
 * suite's copy is never served half-written) and Vite's `--manifest` flag (the build's own map
 * of entries, static imports and dynamic imports; miniapp/vite.config.ts is unchanged, and the
 * server does not serve the manifest's .vite/ folder).
 */

/** One chunk of Vite's build manifest (.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of the chunks it imports statically. */
  imports?: string[];
  /** Manifest keys of the chunks it imports with `import()`. */
  dynamicImports?: string[];
  /** Stylesheets (build-relative) that load with it. */
  css?: string[];
}

export type ViteManifest = Record<string, ManifestChunk>;

/** Builds the mini-app into `outDir` (emptied first); returns its manifest. */
export async function buildMiniapp(repoRoot: string, outDir: string): Promise<ViteManifest> {
  await rm(outDir, { recursive: true, force: true });
  await run('npm', ['run', 'build', '-w', 'miniapp', '--', '--manifest'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production', MINIAPP_BUILD_DIR: outDir },
  });
  return JSON.parse(
    await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
  ) as ViteManifest;
}
