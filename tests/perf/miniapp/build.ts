import { readFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * The mini-app build the benchmark measures is the one `npm start` makes (the launcher builds it
 * into the benchmark's MINIAPP_BUILD_DIR); its Vite manifest (.vite/manifest.json, which
 * miniapp/vite.config.ts always writes) maps entries to their static and dynamic imports.
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

/** The manifest of the mini-app build in `buildDir`. */
export async function readManifest(buildDir: string): Promise<ViteManifest> {
  return JSON.parse(
    await readFile(path.join(buildDir, '.vite', 'manifest.json'), 'utf8'),
  ) as ViteManifest;
}
