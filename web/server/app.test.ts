import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import express, { type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '@app/shared/log';

import { loader as rootLoader } from '../app/root.tsx';

import { createWebApp, isMalformedPath, pageErrors, plainErrorPage } from './app.ts';
import { getPublicEnv, WebEnv } from './env.ts';

/*
 * Issue 23: what the server answers when Express fails before a page renders. Express's own
 * handler printed the stack and the server's paths whenever NODE_ENV was not `production`,
 * which is how `npm start` runs the web server.
 */

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** The portal's chain as main.ts builds it, with `portal` for React Router's handler. */
async function start(portal: RequestHandler): Promise<string> {
  const env = WebEnv.parse({ NODE_ENV: 'development' });
  const publicEnv = getPublicEnv(env, 'build-1');
  const logger = createLogger('test', { level: 'silent' });
  const app = createWebApp(env, publicEnv, logger);
  app.use(express.static(import.meta.dirname, { index: false }));
  app.get('/fails', () => {
    throw new Error(`broken at ${import.meta.filename}`);
  });
  app.all('/{*splat}', portal);
  app.use(pageErrors(portal, logger));
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A stand-in for React Router's handler: the real root loader's status, then a page. */
const portal: RequestHandler = (req, res) => {
  try {
    rootLoader({
      request: new Request(`http://localhost${req.originalUrl}`),
      context: { publicEnv: getPublicEnv(WebEnv.parse({}), 'build-1'), cspNonce: undefined },
      params: {},
    } as never);
  } catch (thrown) {
    const init = (thrown as { init?: { status?: number } }).init;
    res.status(init?.status ?? 500);
  }
  res.type('html').send('<!doctype html><h1>portal page</h1>');
};

const SERVER_INTERNALS = /URIError|\n\s+at |node_modules|web\/server|\.ts\b/;

describe('page errors', () => {
  it('sends a malformed address to the portal, which answers 400, and shows no stack', async () => {
    const base = await start(portal);
    for (const path of ['/transaction/%E0%A4%A', '/ru/%E0%A4%A', '/app.ts%E0%A4%A']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(400);
      const body = await response.text();
      expect(body).toContain('portal page');
      expect(body).not.toMatch(SERVER_INTERNALS);
    }
  });

  it('answers a plain page in the address language when the portal itself fails', async () => {
    const base = await start(() => {
      throw new Error(`render failed at ${import.meta.filename}`);
    });
    const response = await fetch(`${base}/ua/transaction/%E0%A4%A`);
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain('<html lang="uk-UA">');
    expect(body).toContain('<title>Невірна адреса</title>');
    expect(body).not.toMatch(SERVER_INTERNALS);
  });

  it('answers any other failure with a plain 500 page without the error', async () => {
    const base = await start(portal);
    const response = await fetch(`${base}/fails`);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toContain('<h1>Internal Server Error</h1>');
    expect(body).not.toMatch(SERVER_INTERNALS);
    expect(body).not.toContain('broken');
  });

  it('tells malformed paths from valid ones', () => {
    expect(isMalformedPath('/transaction/%E0%A4%A')).toBe(true);
    expect(isMalformedPath('/transaction/%E0%A4%A4')).toBe(false);
    expect(isMalformedPath('/ru/rules')).toBe(false);
    expect(plainErrorPage('/ru/x', 404)).toContain('Страница не найдена');
  });
});
