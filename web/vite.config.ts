import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

import { currencyIcons } from '@app/client/vite/currency-icons.ts';

import { catalogPreloads } from './vite/catalog-preloads.ts';

/** What the chunking callback may ask Rolldown about a module. */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The route modules every page loads: the root and the site layout. */
const SHELL_ROUTES = ['app/root.tsx', 'app/routes/site-layout.tsx'].map((file) =>
  path.join(here, file),
);

/** Every module the shell routes import statically, per chunking pass. */
const shells = new WeakMap<ChunkingContext, Set<string>>();
function shellModules(context: ChunkingContext): Set<string> {
  let shell = shells.get(context);
  if (shell) return shell;
  shell = new Set();
  const queue = [...SHELL_ROUTES];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (shell.has(id)) continue;
    const info = context.getModuleInfo(id);
    if (!info) continue;
    shell.add(id);
    queue.push(...info.importedIds);
  }
  shells.set(context, shell);
  return shell;
}

/**
 * Client chunks: what the root and the site layout import (React Router, i18n and the catalogs,
 * the session store, the header, ...) is needed by every page, so it goes into one `shell` chunk
 * instead of a dozen small shared ones. Pages then start with about 9 script requests instead of
 * 19, which on HTTP/1.1 (six connections, a round trip per request) brings the first paint
 * forward by some 200-300 ms on a slow mobile connection (`npm run bench:web`). Route modules
 * stay chunks of their own, and nothing a page does not need moves into the shell.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouter(), currencyIcons(), catalogPreloads()],
  build: isSsrBuild
    ? {}
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: (id: string, context: ChunkingContext) =>
                    !SHELL_ROUTES.includes(id) && shellModules(context).has(id) ? 'shell' : null,
                },
              ],
            },
          },
        },
      },
}));
