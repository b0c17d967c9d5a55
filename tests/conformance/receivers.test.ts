import net from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { postJson } from './http.ts';
import { ActionHandler, EventReceiver } from './receivers.ts';

let actions: ActionHandler;
let events: EventReceiver;
let actionsPort: number;
let eventsPort: number;

beforeAll(async () => {
  actions = new ActionHandler();
  events = new EventReceiver();
  actionsPort = await actions.start(0);
  eventsPort = await events.start(0);
});

afterAll(async () => {
  await actions.stop();
  await events.stop();
});

/** The raw bytes of a response, to see exactly which headers go out. */
function rawPost(port: number, path: string, body: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const payload = JSON.stringify(body);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
    );
  });
}

describe('the action handler (handlers.yaml)', () => {
  const call = (path: string, input: unknown) =>
    postJson(
      `http://127.0.0.1:${actionsPort}${path}`,
      { action: { name: 'x' }, input, session_variables: {} },
      {},
    );

  it('answers with exactly Content-Type and Set-Cookie, like the pytest handler', async () => {
    const raw = await rawPost(actionsPort, '/mirror-action', {
      input: { arg: { id: 'some-id', name: 'Alice' } },
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head?.split('\r\n')).toEqual([
      'HTTP/1.1 200 OK',
      'Content-Type: application/json',
      'Set-Cookie: abcd',
    ]);
    expect(JSON.parse(body ?? '')).toEqual({ id: 'some-id', name: 'Alice' });
  });

  it('implements the fixed routes', async () => {
    expect((await call('/null-response', {})).json).toBeNull();
    expect((await call('/scalar-response', {})).json).toBe('some-string');
    expect((await call('/omitted-response-field', {})).json).toEqual({ country: 'India' });
    expect((await call('/typed-nested-null-wrong-field', {})).json).toEqual({
      id: null,
      child: null,
    });
    const blob = {
      message: 'intentionally generated error',
      code: 'toplevel-error',
      extensions: { foo: 'bar' },
    };
    const failed = await call('/intentional-error', { blob });
    expect([failed.status, failed.json]).toEqual([400, blob]);
    expect((await call('/unknown', {})).status).toBe(204);
  });

  it('validates emails before calling the engine', async () => {
    const invalid = await call('/create-user', { email: 'random-email', name: 'Clarke' });
    expect([invalid.status, invalid.json]).toEqual([
      400,
      { message: 'Given email address is not valid', code: 'invalid-email' },
    ]);
    const users = await call('/create-users', {
      users: [
        { email: 'blake@hasura.io', name: 'Blake' },
        { email: 'random-email', name: 'Elsa' },
      ],
    });
    expect(users.json).toEqual({
      message: 'Email address is not valid: random-email',
      code: 'invalid-email',
    });
  });

  it('echoes request headers on /mirror-headers', async () => {
    const response = await postJson(
      `http://127.0.0.1:${actionsPort}/mirror-headers`,
      {},
      { 'User-Agent': 'hasura-graphql-engine/x' },
    );
    expect(response.json).toMatchObject({
      headers: expect.arrayContaining([
        { name: 'user-agent', value: 'hasura-graphql-engine/x' },
      ]) as unknown,
    });
  });
});

describe('the event receiver', () => {
  it('records deliveries with path, headers and body; /fail answers 500', async () => {
    events.clear();
    const ok = await postJson(
      `http://127.0.0.1:${eventsPort}/`,
      { id: '1' },
      { 'X-Header-From-Value': 'MyValue' },
    );
    const fail = await postJson(`http://127.0.0.1:${eventsPort}/fail?x=1`, { id: '2' }, {});
    expect([ok.status, fail.status]).toEqual([204, 500]);
    expect(events.deliveries.map((delivery) => [delivery.path, delivery.body])).toEqual([
      ['/', { id: '1' }],
      ['/fail', { id: '2' }],
    ]);
    expect(events.deliveries[0]?.headers['x-header-from-value']).toBe('MyValue');
  });

  it('waits for the next delivery', async () => {
    events.clear();
    const waiting = events.waitForCount(0, 2_000);
    await postJson(`http://127.0.0.1:${eventsPort}/`, {}, {});
    expect(await waiting).toBe(true);
    expect(await events.waitForCount(1, 50)).toBe(false);
  });
});
