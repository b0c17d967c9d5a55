import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Plugin } from 'vite';

import { iconFiles } from '../src/currency-icons/icon-set.ts';

/*
 * The currency icons as static files (decision 038): the set ships each SVG as a JavaScript
 * string module; this copies the ones icon-set.ts lists into the build's assets, and serves them
 * in development, so no icon ever lands in a JavaScript bundle. The folder is named after a hash
 * of the icons, so the servers' long-lived, immutable caching of assets/ stays right.
 */

/** The set's dist/ folder (its entry, dist/index.js, sits there beside svgs/). */
const require = createRequire(import.meta.url);
const SET_DIR = path.dirname(require.resolve('@web3icons/core'));

/** An icon file's SVG text: tokens/BTC.svg is the set's svgs/tokens/branded/BTC.svg module. */
async function readIcon(file: string): Promise<string> {
  const [folder = '', name = ''] = file.split('/');
  const module = path.join(SET_DIR, 'svgs', folder, 'branded', `${name}.js`);
  const { default: svg } = (await import(pathToFileURL(module).href)) as { default: unknown };
  if (typeof svg !== 'string' || !svg.startsWith('<svg')) throw new Error(`no SVG in ${module}`);
  return svg;
}

/** Every listed icon, by its path under the icons folder. */
export async function loadCurrencyIcons(): Promise<Map<string, string>> {
  const files = iconFiles();
  return new Map(
    await Promise.all(files.map(async (file) => [file, await readIcon(file)] as const)),
  );
}

/** The folder the icons go to, under the app's base: assets/currency-icons-<hash>. */
export function iconsFolder(icons: Map<string, string>): string {
  const hash = createHash('sha256');
  for (const [file, svg] of icons) hash.update(file).update('\0').update(svg).update('\0');
  return `assets/currency-icons-${hash.digest('hex').slice(0, 10)}`;
}

/** The Vite plugin both apps use: defines the folder, emits the files, serves them in dev. */
export function currencyIcons(): Plugin {
  let loaded: Promise<Map<string, string>> | undefined;
  const load = () => (loaded ??= loadCurrencyIcons());
  let folder = '';
  return {
    name: 'currency-icons',
    async config() {
      folder = iconsFolder(await load());
      return { define: { __CURRENCY_ICONS_DIR__: JSON.stringify(folder) } };
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const pathname = (req.url ?? '').split('?')[0] ?? '';
        const at = pathname.indexOf(`/${folder}/`);
        if (at < 0) return next();
        load().then((icons) => {
          const svg = icons.get(pathname.slice(at + folder.length + 2));
          if (svg === undefined) return next();
          res.setHeader('content-type', 'image/svg+xml');
          res.setHeader('cache-control', 'no-cache');
          res.end(svg);
        }, next);
      });
    },
    async generateBundle() {
      // The server build renders the same URLs; the browser build ships the files.
      if (this.environment.config.consumer === 'server') return;
      for (const [file, svg] of await load()) {
        this.emitFile({ type: 'asset', fileName: `${folder}/${file}`, source: svg });
      }
    },
  };
}
