import http from 'node:http';
import type { AddressInfo } from 'node:net';

import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded-postgres/index.ts';
import { createEngine } from '../engine.ts';
import type { Engine } from '../engine-options.ts';

import { metadata, SETUP_SQL } from './actions-metadata.ts';

/*
 * The actions suites' shared world: a real engine on embedded PostgreSQL serving
 * actions-metadata.ts, a local handler that records what it receives and answers per path, and
 * GraphQL over HTTP. Each suite file calls useActionsWorld once, which starts one such world
 * for the file.
 */

const ADMIN_SECRET = 'test-admin-secret';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: Record<string, unknown>;
}

function reply(response: http.ServerResponse, status: number, body: unknown, raw = false): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Set-Cookie': 'session=abc' });
  response.end(raw ? String(body) : JSON.stringify(body));
}

/** The handler's answer per path: each action of actions-metadata.ts calls one. */
function route(request: Received, response: http.ServerResponse): void {
  const input = (request.body['input'] ?? {}) as Record<string, unknown>;
  switch (request.path) {
    case '/echo':
      return reply(response, 200, { received: request.body, note: 'ok', extra: 'ignored' });
    case '/create-user':
      return reply(response, 200, { id: 2 });
    case '/get-user':
      return reply(response, 200, { id: input['id'] });
    case '/get-users':
      return reply(response, 200, [{ id: 1 }, null, { id: 2 }, { id: 99 }]);
    case '/nested':
      return reply(response, 200, {
        id: 7,
        address: { city: 'Kyiv', country: 'UA' },
        addresses: [{ city: 'Lviv', country: 'UA' }, null, { country: 'PL' }],
        owner: { id: 1 },
      });
    case '/scalar':
      return reply(response, 200, 'some-string');
    case '/json':
      return reply(response, 200, { foo: [1, { bar: null }] });
    case '/fail':
      return reply(response, 400, input['body']);
    case '/null-field':
      return reply(response, 200, { id: null });
    case '/missing-field':
      return reply(response, 200, { other: 1 });
    case '/wrong-shape':
      return reply(response, 200, [{ id: 1 }]);
    case '/not-json':
      return reply(response, 200, 'this is <html>', true);
    case '/server-error':
      return reply(response, 503, { message: 'down for maintenance' });
    case '/unavailable':
      return reply(response, 503, {
        message: 'The service is briefly unavailable.',
        extensions: { code: 'service-unavailable' },
      });
    case '/slow':
      setTimeout(() => reply(response, 200, { id: 1 }), 2_500).unref();
      return;
    case '/headers':
      return reply(response, 200, { id: 1 });
    default:
      response.writeHead(404);
      response.end();
  }
}

export const asUser = (id: string) => ({ 'x-hasura-role': 'user', 'x-hasura-user-id': id });

/** Starts the world before the file's tests and stops it after; the handles are read lazily. */
export function useActionsWorld() {
  let database: EmbeddedPostgres;
  let engine: Engine;
  let engineUrl: string;
  let handlerServer: http.Server;
  let environment: Record<string, string>;
  /** What the handler received since the current test started. */
  const received: Received[] = [];

  async function gql(
    query: string,
    options: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
    const response = await fetch(`${engineUrl}/v1/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hasura-admin-secret': ADMIN_SECRET,
        ...options.headers,
      },
      body: JSON.stringify({ query, variables: options.variables }),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      headers: response.headers,
    };
  }

  beforeAll(async () => {
    handlerServer = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const entry: Received = {
          path: request.url ?? '/',
          headers: request.headers,
          text,
          body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        };
        received.push(entry);
        route(entry, response);
      });
    });
    await new Promise<void>((resolve) => handlerServer.listen(0, '127.0.0.1', resolve));
    const handlerPort = (handlerServer.address() as AddressInfo).port;

    // A port nothing listens on: bind one, note it, close it.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    database = await startEmbeddedPostgres({ port: 0 });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(SETUP_SQL);
    await client.end();

    environment = {
      ACTION_BASE: `http://127.0.0.1:${handlerPort}`,
      ACTION_SECRET: 'from-the-environment',
      DEAD_URL: `http://127.0.0.1:${deadPort}`,
    };
    engine = await createEngine({
      databaseUrl: database.url,
      metadata: { object: metadata },
      adminSecret: ADMIN_SECRET,
      stringifyNumericTypes: true,
      environment,
      poolSize: 4,
    });
    engineUrl = (await engine.listen(0)).url;
  });

  afterAll(async () => {
    await engine?.close();
    await new Promise<void>((resolve) =>
      handlerServer ? handlerServer.close(() => resolve()) : resolve(),
    );
    await database?.stop();
  });

  beforeEach(() => {
    received.length = 0;
  });

  return {
    gql,
    received,
    get database() {
      return database;
    },
    get environment() {
      return environment;
    },
  };
}
