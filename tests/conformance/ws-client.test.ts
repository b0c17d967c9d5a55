import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

import type { LoadedCase, RequestSpec, WsScenariosCase } from './corpus.ts';
import { runRequests, runScenarios, type CaseContext } from './drivers.ts';
import { generateJwtKeys } from './jwt.ts';
import { EventReceiver } from './receivers.ts';
import { WsConnection, responseFromMessage, type WsProtocol } from './ws-client.ts';

/*
 * The websocket plumbing against a small fake server that speaks both protocols the way
 * Hasura does (keep-alives, pings, data then complete for queries, errors).
 */

const ROWS = { data: { t: [{ c1: 1, c2: 'a' }] } };
const ERRORS = [
  {
    message: 'missing session variable: "x-hasura-custom"',
    extensions: { path: '$', code: 'not-found' },
  },
];

let server: WebSocketServer;
let port: number;
const initPayloads: unknown[] = [];

function handle(socket: WebSocket, protocol: WsProtocol) {
  const send = (message: unknown) => socket.send(JSON.stringify(message));
  if (protocol === 'graphql-transport-ws') send({ type: 'ping' });
  socket.on('message', (raw: Buffer) => {
    const message = JSON.parse(raw.toString()) as {
      type?: string;
      id?: string;
      payload?: { query?: string };
    };
    const legacy = protocol === 'graphql-ws';
    switch (message.type) {
      case 'connection_init':
        initPayloads.push(message.payload);
        if (legacy) send({ type: 'ka' });
        send({ type: 'connection_ack' });
        return;
      case 'start':
      case 'subscribe': {
        const query = message.payload?.query ?? '';
        if (query.includes('custom')) {
          send({ type: 'error', id: message.id, payload: legacy ? { errors: ERRORS } : ERRORS });
          return;
        }
        if (legacy) send({ type: 'ka' });
        send({ type: legacy ? 'data' : 'next', id: message.id, payload: ROWS });
        if (!query.trimStart().startsWith('subscription'))
          send({ type: 'complete', id: message.id });
        return;
      }
      case 'stop':
      case 'complete':
        if (message.id === undefined) {
          if (legacy) send({ type: 'connection_error', payload: 'no id' });
          else socket.close(4400, 'no id');
        }
        return;
      case 'pong':
        return;
      default:
        if (legacy) send({ type: 'connection_error', payload: 'unknown type' });
        else socket.close(4400, 'unknown type');
    }
  });
}

beforeAll(async () => {
  server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (protocols) => [...protocols][0] ?? false,
  });
  server.on('connection', (socket) => handle(socket, socket.protocol as WsProtocol));
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

function context(testCase: LoadedCase, protocols: WsProtocol[]): CaseContext {
  const cleanups: (() => void)[] = [];
  return {
    testCase,
    engine: {
      url: 'http://127.0.0.1:9',
      wsUrl: `ws://127.0.0.1:${port}/v1/graphql`,
      settings: { stringifyNumericTypes: true, environment: {}, adminSecret: 'sec' },
    },
    settings: { stringifyNumericTypes: true, environment: {}, adminSecret: 'sec' },
    sendAdminSecret: true,
    placeholders: { adminSecret: 'sec', wrongSecret: 'x' },
    jwtKeys: generateJwtKeys(),
    wsProtocols: protocols,
    events: new EventReceiver(),
    prepare: () => Promise.resolve(),
    signal: new AbortController().signal,
    track: (cleanup) => cleanups.push(cleanup),
  };
}

describe('WsConnection', () => {
  it('drops keep-alives, answers pings and takes messages by predicate', async () => {
    for (const protocol of ['graphql-ws', 'graphql-transport-ws'] as const) {
      const connection = await WsConnection.open(`ws://127.0.0.1:${port}/v1/graphql`, protocol);
      connection.send({ type: 'connection_init', payload: {} });
      expect(await connection.take()).toEqual({ type: 'connection_ack' });
      connection.send({
        id: '7',
        type: protocol === 'graphql-ws' ? 'start' : 'subscribe',
        payload: { query: '{ t }' },
      });
      const complete = await connection.take((message) => message['type'] === 'complete');
      expect(complete).toEqual({ type: 'complete', id: '7' });
      expect(connection.pending()).toEqual([
        { type: protocol === 'graphql-ws' ? 'data' : 'next', id: '7', payload: ROWS },
      ]);
      connection.close();
    }
  });

  it('reports the close code', async () => {
    const connection = await WsConnection.open(
      `ws://127.0.0.1:${port}/v1/graphql`,
      'graphql-transport-ws',
    );
    connection.send({ type: 'bogus' });
    expect(await connection.waitClosed(2_000)).toEqual({ code: 4400, reason: 'unknown type' });
    await expect(connection.take(() => true, 100)).rejects.toThrow(/socket closed \(code 4400/);
  });

  it('times out clearly', async () => {
    const connection = await WsConnection.open(`ws://127.0.0.1:${port}/v1/graphql`, 'graphql-ws');
    await expect(connection.take(() => true, 50, 'a thing')).rejects.toThrow(
      'no a thing within 50 ms',
    );
    connection.close();
  });
});

describe('responseFromMessage', () => {
  it('turns every error shape into a GraphQL response', () => {
    expect(responseFromMessage({ type: 'data', payload: ROWS })).toEqual(ROWS);
    expect(responseFromMessage({ type: 'error', payload: ERRORS })).toEqual({ errors: ERRORS });
    expect(responseFromMessage({ type: 'error', payload: { errors: ERRORS } })).toEqual({
      errors: ERRORS,
    });
    expect(responseFromMessage({ type: 'error', payload: ERRORS[0] })).toEqual({ errors: ERRORS });
  });
});

describe('drivers over websockets', () => {
  const request = (spec: Partial<RequestSpec>): RequestSpec => ({
    url: '/v1/graphql',
    status: 200,
    query: { query: 'query {\n  t { c1 c2 }\n}\n' },
    response: ROWS,
    ...spec,
  });
  const requestCase = (specs: RequestSpec[]): LoadedCase => ({
    group: 'g',
    file: 'cases/x.yaml',
    entry: { file: 'cases/x.yaml', transports: ['websocket', 'subscription'] },
    body: { kind: 'requests', requests: specs },
  });

  it('runs websocket and subscription transports on both protocols, with the headers in connection_init', async () => {
    initPayloads.length = 0;
    const specs = [request({ headers: { 'X-Hasura-Role': 'user' } })];
    const outcome = await runRequests(
      context(requestCase(specs), ['graphql-ws', 'graphql-transport-ws']),
      specs,
    );
    expect(outcome).toEqual({ failures: [], drift: [], notes: [] });
    expect(initPayloads).toHaveLength(4);
    expect(initPayloads[0]).toEqual({
      headers: { 'X-Hasura-Role': 'user', 'X-Hasura-Admin-Secret': 'sec' },
    });
  });

  it('compares error messages as responses', async () => {
    const specs = [
      request({ query: { query: 'query {\n custom { c1 }\n}' }, response: { errors: ERRORS } }),
    ];
    const outcome = await runRequests(
      context(requestCase(specs), ['graphql-ws', 'graphql-transport-ws']),
      specs,
    );
    expect(outcome.failures).toEqual([]);
  });

  it('meets an expected data: null beside errors with an error message', async () => {
    const specs = [
      request({
        query: { query: 'mutation {\n custom { c1 }\n}' },
        response: { data: null, errors: ERRORS },
      }),
    ];
    const outcome = await runRequests(
      context(requestCase(specs), ['graphql-ws', 'graphql-transport-ws']),
      specs,
    );
    expect(outcome.failures).toEqual([]);
  });

  it('reports a mismatch with its transport and protocol', async () => {
    const specs = [request({ response: { data: { t: [] } } })];
    const outcome = await runRequests(context(requestCase(specs), ['graphql-transport-ws']), specs);
    expect(outcome.failures).toEqual([
      '[websocket graphql-transport-ws] $.data.t: expected 0 items, got 1 ([{"c1":1,"c2":"a"}])',
      '[subscription graphql-transport-ws] $.data.t: expected 0 items, got 1 ([{"c1":1,"c2":"a"}])',
    ]);
  });

  it('runs scenarios on a shared socket, reopening after a close', async () => {
    const spec: WsScenariosCase = {
      scenarios: [
        {
          name: 'init',
          steps: [
            {
              send: {
                type: 'connection_init',
                payload: { headers: { 'X-Hasura-Admin-Secret': '<secret if configured>' } },
              },
            },
            { expect: { type: 'connection_ack' } },
          ],
        },
        {
          name: 'unknown type',
          steps: [{ send: { type: 'test' } }, { expect_connection_closed: true, close_code: 4400 }],
        },
        {
          name: 'subscribe',
          steps: [
            {
              send: {
                id: '<uuid>',
                type: 'subscribe',
                payload: { query: 'subscription { t { c1 } }' },
              },
            },
            { expect: { type: 'next', id: '<same uuid>' } },
          ],
        },
        {
          name: 'needs no secret',
          requires: 'admin secret configured, no unauthorized role',
          steps: [
            { send: { type: 'complete', id: '1' } },
            { expect_no_message_within_seconds: 0.2 },
          ],
        },
      ],
    };
    const testCase: LoadedCase = {
      group: 'g',
      file: 'cases/s.yaml',
      entry: { file: 'cases/s.yaml', transports: ['websocket'] },
      body: { kind: 'ws-scenarios', spec },
    };
    expect(await runScenarios(context(testCase, ['graphql-transport-ws']), spec)).toEqual({
      failures: [],
      drift: [],
      notes: [],
    });
    const wrongCode = structuredClone(spec);
    wrongCode.scenarios[1]!.steps[1]!.close_code = 4403;
    const outcome = await runScenarios(context(testCase, ['graphql-transport-ws']), wrongCode);
    expect(outcome.failures).toEqual([
      '[graphql-transport-ws] unknown type: step 2: closed with code 4400 (unknown type), expected 4403',
    ]);
  });
});
