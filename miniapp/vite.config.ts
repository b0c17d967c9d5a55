import path from 'node:path';
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { currencyIcons } from '@app/client/vite/currency-icons.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The mini-app: a static single-page app under /telegram-app/, served by the web server (built
 * in production, through Vite's middleware in development). `MINIAPP_BUILD_DIR` lets the
 * end-to-end tests and the benchmark build a copy of their own.
 */
export default defineConfig({
  root: here,
  base: '/telegram-app/',
  plugins: [react(), currencyIcons()],
  build: {
    // eslint-disable-next-line no-restricted-properties -- build tooling, not a service
    outDir: process.env['MINIAPP_BUILD_DIR'] ?? path.join(here, 'dist'),
    emptyOutDir: true,
    // The web server reads it to preload the page's language (web/server/miniapp.ts).
    manifest: true,
  },
});
