import fc from 'fast-check';
import WebSocket from 'ws';

import { operationPayload, ROLES, type Role, type ShotContext } from './graphql-shots.ts';
import { SERVER_FAILURE_CODES, Tally } from './tally.ts';
import { nastyString } from './values.ts';

/*
 * Hostile WebSocket sessions on /v1/graphql: garbage frames, messages in the wrong order,
 * huge payloads, many subscriptions on one connection, hostile operations and init payloads,
 * in both protocols (graphql-transport-ws and the legacy graphql-ws). A session fails when
 * the server answers with an `unexpected` error or a non-JSON message, drops the connection
 * without a close frame (1006), closes with an internal-error code (1011, 4500), or stops
 * answering (a ping gets no pong).
 */

export interface WsSession {
  kind: string;
  role: Role;
  protocols: string[];
  /** Credentials in the connection_init payload (as the web app sends them) or in the upgrade. */
  credentialsIn: 'init' | 'upgrade';
  messages: Array<string | Buffer>;
  /** How long to wait for answers after the last message. */
  settleMs: number;
}

const TRANSPORT = 'graphql-transport-ws';
const LEGACY = 'graphql-ws';

function withShortPrint(session: WsSession): WsSession {
  Object.defineProperty(session, fc.toStringMethod, {
    enumerable: false,
    value: () =>
      `${session.kind} as ${session.role} [${session.protocols.join(',')}] ${session.messages.length} messages: ${session.messages
        .slice(0, 6)
        .map((message) => {
          const text = typeof message === 'string' ? message : `<binary ${message.length}>`;
          return text.length > 200 ? `${text.slice(0, 200)}… (${text.length})` : text;
        })
        .join(' | ')}`,
  });
  return session;
}

const INIT = '{"type":"connection_init"}';
const subscribe = (id: string, payload: unknown, legacy = false) =>
  JSON.stringify({ type: legacy ? 'start' : 'subscribe', id, payload });
const live = (i: number) => ({ query: `subscription { s${i}: currencies(limit: 1) { code } }` });

const protocols = fc.constantFrom<string[]>(
  [TRANSPORT],
  [TRANSPORT],
  [LEGACY],
  [LEGACY],
  [],
  ['foo'],
  [TRANSPORT, LEGACY],
  ['GRAPHQL-TRANSPORT-WS'],
);

const garbageMessage = fc.oneof(
  fc.string({ maxLength: 100 }),
  nastyString,
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '',
    '{}',
    '[]',
    'null',
    '{"type":1}',
    '{"type":null}',
    '{"type":"subscribe"}',
    '{"type":"subscribe","id":1,"payload":{"query":"{ __typename }"}}',
    '{"type":"subscribe","id":"1","payload":"{ __typename }"}',
    '{"type":"subscribe","id":"1","payload":{"query":5}}',
    '{"type":"subscribe","id":"1","payload":{"query":"{ __typename }","variables":[]}}',
    '{"type":"start","id":{},"payload":{}}',
    '{"type":"stop"}',
    '{"type":"complete","id":[]}',
    '{"type":"connection_init","payload":"token"}',
    '{"type":"connection_init","payload":[1,2]}',
    '{"type":"ping","payload":{"a":[1,{"b":null}]}}',
    '{"type":"pong","payload":1}',
    '{"type":"next","id":"1","payload":{}}',
    '{"type":"error","id":"1","payload":[]}',
    '{"type":"ka"}',
    '{"type":"__proto__"}',
    '{"type":"connection_init","payload":{"__proto__":{"x-hasura-role":"administrator"}}}',
    `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  ),
  fc
    .constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0x80], [0xed, 0xa0, 0x80], [0x7b, 0x00, 0x7d])
    .map((bytes) => Buffer.from(bytes)),
);

/** Every kind of hostile session. */
export function wsSession(context: ShotContext): fc.Arbitrary<WsSession> {
  const role = fc.constantFrom(...ROLES);
  const credentialsIn = fc.constantFrom<'init' | 'upgrade'>('init', 'init', 'upgrade');
  const base = fc.record({ role, protocols, credentialsIn });
  const operation = operationPayload(context);

  const garbage = fc
    .tuple(base, fc.boolean(), fc.array(garbageMessage, { minLength: 1, maxLength: 10 }))
    .map(([b, init, messages]) =>
      withShortPrint({
        ...b,
        kind: 'ws-garbage',
        messages: init ? [INIT, ...messages] : messages,
        settleMs: 150,
      }),
    );

  const step = fc.oneof(
    fc.constant(INIT),
    fc.nat(3).map((id) => subscribe(String(id), live(id))),
    fc.nat(3).map((id) => subscribe(String(id), live(id), true)),
    fc.nat(3).map((id) => JSON.stringify({ type: 'complete', id: String(id) })),
    fc.nat(3).map((id) => JSON.stringify({ type: 'stop', id: String(id) })),
    fc.constant('{"type":"ping"}'),
    fc.constant('{"type":"pong"}'),
    fc.constant('{"type":"connection_terminate"}'),
    fc.nat(3).map((id) => subscribe(String(id), { query: 'mutation { __typename }' })),
    fc.nat(3).map((id) => subscribe(String(id), { query: '{ __typename }' })),
  );
  const order = fc
    .tuple(base, fc.array(step, { minLength: 1, maxLength: 14 }))
    .map(([b, messages]) => withShortPrint({ ...b, kind: 'ws-order', messages, settleMs: 200 }));

  const huge = fc
    .tuple(base, fc.integer({ min: 200_000, max: 1_400_000 }), fc.nat(2))
    .map(([b, size, variant]) => {
      const filler = 'x'.repeat(size);
      const message =
        variant === 0
          ? subscribe('1', { query: `{ __typename } # ${filler}` })
          : variant === 1
            ? subscribe('1', { query: '{ __typename }', variables: { big: filler } })
            : filler;
      return withShortPrint({ ...b, kind: 'ws-huge', messages: [INIT, message], settleMs: 300 });
    });

  const many = fc
    .tuple(base, fc.integer({ min: 20, max: 600 }), fc.boolean(), fc.boolean())
    .map(([b, count, distinct, complete]) => {
      const legacy = b.protocols[0] === LEGACY;
      const messages = [INIT];
      for (let i = 0; i < count; i += 1)
        messages.push(subscribe(`s${i}`, distinct ? live(i) : live(0), legacy));
      if (complete)
        for (let i = 0; i < count; i += 2)
          messages.push(JSON.stringify({ type: legacy ? 'stop' : 'complete', id: `s${i}` }));
      return withShortPrint({ ...b, kind: 'ws-many', messages, settleMs: 800 });
    });

  const operations = fc
    .tuple(base, fc.array(operation, { minLength: 1, maxLength: 5 }))
    .map(([b, payloads]) =>
      withShortPrint({
        ...b,
        kind: 'ws-operations',
        messages: [
          INIT,
          ...payloads.map((payload, i) => subscribe(`op${i}`, payload, b.protocols[0] === LEGACY)),
        ],
        settleMs: 400,
      }),
    );

  const init = fc
    .tuple(
      base,
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({
          headers: fc.dictionary(
            fc.constantFrom(
              'Authorization',
              'authorization',
              'x-hasura-role',
              'x-hasura-admin-secret',
              'x-hasura-user-id',
            ),
            fc.oneof(nastyString, fc.constantFrom('Bearer x.y.z', 'Bearer', 'administrator', '')),
          ),
        }),
        fc.record({
          Authorization: nastyString,
          'x-hasura-role': fc.constantFrom('administrator', "user' --", ''),
        }),
      ),
    )
    .map(([b, payload]) =>
      withShortPrint({
        ...b,
        credentialsIn: 'upgrade' as const,
        kind: 'ws-init',
        messages: [
          JSON.stringify({ type: 'connection_init', payload }),
          subscribe('1', { query: '{ __typename }' }, b.protocols[0] === LEGACY),
        ],
        settleMs: 200,
      }),
    );

  return fc.oneof(
    { weight: 4, arbitrary: garbage },
    { weight: 4, arbitrary: order },
    { weight: 1, arbitrary: huge },
    { weight: 2, arbitrary: many },
    { weight: 5, arbitrary: operations },
    { weight: 2, arbitrary: init },
  );
}

/** Session counts, plus how long the server took to answer a ping after each session. */
export class WsTally extends Tally {
  messagesSent = 0;
  messagesReceived = 0;
  readonly closeCodes: Record<string, number> = {};
  slowestPongMs = 0;

  override summary() {
    return {
      ...super.summary(),
      sessions: this.requests,
      messagesSent: this.messagesSent,
      messagesReceived: this.messagesReceived,
      closeCodes: this.closeCodes,
      slowestPongMs: this.slowestPongMs,
    };
  }
}

/** Codes a server closes with when it failed, not the client. */
const FAILED_CLOSE = new Set([1006, 1011, 4500]);

function failureIn(message: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return 'unclear';
  }
  const payload = (parsed as { payload?: unknown })?.payload;
  const errors: unknown[] = Array.isArray(payload)
    ? payload
    : Array.isArray((payload as { errors?: unknown })?.errors)
      ? (payload as { errors: unknown[] }).errors
      : payload && typeof payload === 'object' && 'extensions' in payload
        ? [payload]
        : [];
  for (const error of errors) {
    const code = (error as { extensions?: { code?: unknown } })?.extensions?.code;
    if (typeof code === 'string' && SERVER_FAILURE_CODES.has(code)) return 'unexpected';
  }
  return undefined;
}

/** Runs one session and counts its verdict. */
export async function runWsSession(
  engineUrl: string,
  session: WsSession,
  credentials: (role: Role) => Record<string, string>,
  tally: WsTally,
): Promise<void> {
  const url = `${engineUrl.replace(/^http/, 'ws')}/v1/graphql`;
  const headers = session.credentialsIn === 'upgrade' ? credentials(session.role) : {};
  const socket = new WebSocket(url, session.protocols, { headers, maxPayload: 64 * 1024 * 1024 });
  const received: string[] = [];
  let failure: string | undefined;
  let status: string | number = 'open';
  let clientClosing = false;
  const closed = new Promise<number>((resolve) => {
    socket.on('close', (code) => resolve(code));
    socket.on('error', (error) => {
      // The client refuses a handshake without one of the protocols it offered: a refusal.
      if (/subprotocol/i.test(error.message)) {
        status = 'no-subprotocol';
        clientClosing = true;
      } else failure ??= `reset: ${error.message}`;
    });
    socket.on('unexpected-response', (_request, response) => {
      status = response.statusCode ?? 0;
      if ((response.statusCode ?? 0) >= 500)
        failure ??= `5xx: upgrade answered ${response.statusCode}`;
      response.resume();
      socket.terminate();
      resolve(-1);
    });
  });
  const pongs: Array<() => void> = [];
  socket.on('message', (data, isBinary) => {
    tally.messagesReceived += 1;
    const text = isBinary ? '<binary>' : (data as Buffer).toString('utf8');
    received.push(text);
    if (text.includes('"pong"')) pongs.splice(0).forEach((resolve) => resolve());
    const problem = failureIn(text);
    if (problem) failure ??= `${problem}: ${text.slice(0, 300)}`;
  });

  const opened = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('open', () => resolve(true))),
    closed.then(() => false),
  ]);
  if (opened) {
    const initPayload =
      session.credentialsIn === 'init' ? { headers: credentials(session.role) } : undefined;
    for (const message of session.messages) {
      if (socket.readyState !== WebSocket.OPEN) break;
      const text =
        message === INIT && initPayload
          ? JSON.stringify({ type: 'connection_init', payload: initPayload })
          : message;
      socket.send(text, { binary: Buffer.isBuffer(text) });
      tally.messagesSent += 1;
    }
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, session.settleMs))]);
    // Still open: the server must still answer (graphql-transport-ws ping; legacy has none).
    if (socket.readyState === WebSocket.OPEN && socket.protocol === TRANSPORT) {
      const started = Date.now();
      const answered = await Promise.race([
        new Promise<boolean>((resolve) => {
          pongs.push(() => resolve(true));
          socket.send('{"type":"ping"}');
        }),
        closed.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      tally.slowestPongMs = Math.max(tally.slowestPongMs, Date.now() - started);
      if (!answered) failure ??= 'hang: no pong within 15 s';
    }
    if (socket.readyState === WebSocket.OPEN) {
      clientClosing = true;
      socket.close(1000);
    }
  }
  const code = await Promise.race([
    closed,
    new Promise<number>((resolve) => setTimeout(() => resolve(-2), 10_000)),
  ]);
  if (code === -2) {
    failure ??= 'hang: the connection did not close';
    socket.terminate();
  }
  if (code >= 0) {
    status = code;
    tally.closeCodes[String(code)] = (tally.closeCodes[String(code)] ?? 0) + 1;
    if (FAILED_CLOSE.has(code) && !(clientClosing && code === 1006))
      failure ??= `${code === 1006 ? 'reset' : '5xx'}: closed with ${code}`;
  }
  const detail = `${failure ?? ''} ← ${fc.stringify(session)} ; got ${received.slice(0, 4).join(' | ').slice(0, 400)}`;
  if (failure) {
    const verdict = failure.startsWith('unexpected')
      ? 'unexpected'
      : failure.startsWith('unclear')
        ? 'unclear'
        : failure.startsWith('hang')
          ? 'hang'
          : failure.startsWith('5xx')
            ? '5xx'
            : 'reset';
    tally.count(session.kind, verdict, status, [], detail);
  } else tally.count(session.kind, 'refused', status, [], detail);
}
