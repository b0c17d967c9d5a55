import { Transform } from 'node:stream';

import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server';
import { ServerRouter, type AppLoadContext, type EntryContext } from 'react-router';

import { lowPriorityModulePreloads } from '#app/server-render/script-priority.server.ts';

/*
 * React Router's default Node entry, with three changes:
 * - the response's CSP nonce (web/server/security.ts, through the load context) goes on every
 *   inline script: React Router's <Scripts>, <ScrollRestoration> and streamed hydration data,
 *   and React's own streaming scripts;
 * - React 18.3's streaming renderer can write the unused tail of its 2 KB buffer, which puts NUL
 *   bytes into long pages with multi-byte text (facebook/react#31134, fixed only in React 19).
 *   NUL is never valid in HTML, so it is dropped;
 * - the scripts' preloads go at low fetch priority (server-render/script-priority.server.ts).
 */

export const streamTimeout = 5_000;

/** Passes the HTML through without NUL bytes. */
function withoutNulBytes(onFinish: () => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk.includes(0) ? chunk.filter((byte) => byte !== 0) : chunk);
    },
    final(callback) {
      onFinish();
      callback();
    },
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext?: AppLoadContext,
) {
  const nonce = loadContext?.cspNonce;
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // Crawlers get the whole page at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = withoutNulBytes(() => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          const html = lowPriorityModulePreloads();
          body.on('error', (error) => html.destroy(error));
          body.pipe(html);
          resolve(
            new Response(createReadableStreamFromReadable(html), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell are logged by React Router's document handler.
          // eslint-disable-next-line no-console
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
