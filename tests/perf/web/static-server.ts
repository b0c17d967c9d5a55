import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/*
 * Serves the floor app's build the way the portal serves its own: brotli (quality 4, the
 * `compression` middleware's default) or gzip by Accept-Encoding, fingerprinted assets cached
 * for a year, the page itself revalidated.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string, port: number): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://floor.invalid').pathname;
    const relative = pathname === '/' ? 'index.html' : path.normalize(pathname).slice(1);
    const file = path.join(root, relative);
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        const accepts = String(request.headers['accept-encoding'] ?? '');
        const headers: Record<string, string> = {
          'content-type': type,
          'cache-control': pathname.startsWith('/assets/')
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0',
          vary: 'Accept-Encoding',
        };
        let payload = body;
        if (/\bbr\b/.test(accepts)) {
          payload = brotliCompressSync(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
          });
          headers['content-encoding'] = 'br';
        } else if (/\bgzip\b/.test(accepts)) {
          payload = gzipSync(body);
          headers['content-encoding'] = 'gzip';
        }
        response.writeHead(200, { ...headers, 'content-length': String(payload.length) });
        response.end(request.method === 'HEAD' ? undefined : payload);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
