import path from 'node:path';

import type { ServerOptions } from 'vite';

/**
 * What the development Vite servers (the portal's and the mini-app's) may read from disk. Vite
 * serves any allowed file by its absolute path under /@fs/, and by default it allows the whole
 * checkout, which holds .data/ (the embedded database with password hashes, the mail outbox with
 * codes and reset links) and .env files. Only the folders the client code lives in are allowed
 * (the portal's app, the mini-app, the client core, the shared sources, the dependencies), and
 * secrets are denied wherever they are, whatever the allow list says (issue 19, point 7d).
 */
export function devServerFs(repoRoot: string): NonNullable<ServerOptions['fs']> {
  const inRepo = (...parts: string[]) => path.join(repoRoot, ...parts);
  return {
    strict: true,
    allow: [
      inRepo('web', 'app'),
      inRepo('web', 'public'),
      inRepo('miniapp', 'index.html'),
      inRepo('miniapp', 'src'),
      inRepo('client', 'src'),
      inRepo('shared', 'src'),
      // Dependencies; those of the two apps' own folders too.
      inRepo('node_modules'),
      inRepo('web', 'node_modules'),
      inRepo('miniapp', 'node_modules'),
      inRepo('client', 'node_modules'),
    ],
    deny: [
      // Vite's own defaults, which a deny list of ours replaces.
      '.env',
      '.env.*',
      '*.{crt,pem,key,p12,pfx,cer,der}',
      '.npmrc',
      '.yarnrc.yml',
      '**/.git/**',
      // The embedded database, the mail outbox and backups, wherever a .data folder is.
      '.data',
      '**/.data/**',
      '*.eml',
      // The workspaces as links in node_modules: the services' sources, the tests. The apps'
      // imports resolve to the real folders above.
      '**/node_modules/@app/**',
    ],
  };
}
