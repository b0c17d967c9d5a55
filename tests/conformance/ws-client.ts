import WebSocket from 'ws';

import { isObject } from './corpus.ts';

/*
 * A websocket client for the two GraphQL protocols Hasura speaks:
 *
 * - `graphql-ws`: the legacy Apollo subscriptions-transport-ws protocol, pytest's default
 *   (connection_init / connection_ack / ka, start / data / error / complete / stop,
 *   connection_error, connection_terminate);
 * - `graphql-transport-ws`: the graphql-ws library's protocol (connection_init /
 *   connection_ack, subscribe / next / error / complete, ping / pong).
 *
 * Keep-alives (`ka`) and pings are answered or dropped here and never reach a test.
 */

export type WsProtocol = 'graphql-ws' | 'graphql-transport-ws';
export const WS_PROTOCOLS: WsProtocol[] = ['graphql-ws', 'graphql-transport-ws'];

export type WsMessage = Record<string, unknown> & { type?: unknown; id?: unknown };

export const protocolMessages = (protocol: WsProtocol) =>
  protocol === 'graphql-ws'
    ? { start: 'start', data: 'data', stop: 'stop' }
    : { start: 'subscribe', data: 'next', stop: 'complete' };

export interface Closed {
  code: number;
  reason: string;
}

export class WsClosedError extends Error {
  constructor(readonly closed: Closed) {
    super(`socket closed (code ${closed.code}${closed.reason ? `, ${closed.reason}` : ''})`);
  }
}

export class WsConnection {
  private readonly queue: WsMessage[] = [];
  private readonly wakers = new Set<() => void>();
  closed: Closed | undefined;
  /** Messages that were not JSON. */
  readonly garbage: string[] = [];

  private constructor(
    private readonly socket: WebSocket,
    readonly protocol: WsProtocol,
  ) {
    socket.on('message', (data: WebSocket.RawData) => {
      let text: string;
      if (Array.isArray(data)) text = Buffer.concat(data).toString('utf8');
      else if (data instanceof ArrayBuffer) text = Buffer.from(data).toString('utf8');
      else text = data.toString('utf8');
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        this.garbage.push(text);
        return;
      }
      if (!isObject(message)) {
        this.garbage.push(text);
        return;
      }
      if (protocol === 'graphql-ws' && message['type'] === 'ka') return;
      if (protocol === 'graphql-transport-ws' && message['type'] === 'ping') {
        this.send({ type: 'pong' });
        return;
      }
      if (protocol === 'graphql-transport-ws' && message['type'] === 'pong') return;
      this.queue.push(message);
      this.wake();
    });
    socket.on('close', (code: number, reason: Buffer) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.wake();
    });
    socket.on('error', () => {
      // 'close' follows; the error itself is reported through `closed`.
    });
  }

  private wake() {
    for (const wake of this.wakers) wake();
  }

  static open(url: string, protocol: WsProtocol, timeoutMs = 10_000): Promise<WsConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, protocol, { handshakeTimeout: timeoutMs });
      const connection = new WsConnection(socket, protocol);
      socket.once('open', () => {
        socket.removeListener('error', onError);
        if (socket.protocol !== protocol) {
          socket.terminate();
          reject(
            new Error(
              `server chose subprotocol ${JSON.stringify(socket.protocol)}, not ${protocol}`,
            ),
          );
          return;
        }
        resolve(connection);
      });
      const onError = (error: Error) =>
        reject(new Error(`websocket handshake failed: ${error.message}`));
      socket.once('error', onError);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  send(message: unknown): void {
    if (this.socket.readyState !== WebSocket.OPEN) {
      throw new WsClosedError(this.closed ?? { code: 0, reason: 'not open' });
    }
    this.socket.send(JSON.stringify(message));
  }

  /** Everything received and not yet taken. */
  pending(): WsMessage[] {
    return [...this.queue];
  }

  /**
   * Takes the first queued message matching `predicate` (any message by default), waiting up
   * to `timeoutMs`. Rejects on timeout, or with WsClosedError when the socket closes first.
   */
  take(
    predicate: (message: WsMessage) => boolean = () => true,
    timeoutMs = 10_000,
    what = 'a message',
  ): Promise<WsMessage> {
    return new Promise((resolve, reject) => {
      const finish = (action: () => void) => {
        clearTimeout(timer);
        this.wakers.delete(check);
        action();
      };
      const check = () => {
        const index = this.queue.findIndex(predicate);
        if (index >= 0) {
          const [message] = this.queue.splice(index, 1);
          finish(() => resolve(message as WsMessage));
        } else if (this.closed) {
          const closed = this.closed;
          finish(() => reject(new WsClosedError(closed)));
        }
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(
                `no ${what} within ${timeoutMs} ms${
                  this.queue.length ? `; pending: ${JSON.stringify(this.queue).slice(0, 200)}` : ''
                }`,
              ),
            ),
          ),
        timeoutMs,
      );
      this.wakers.add(check);
      check();
    });
  }

  /** Resolves with what arrived (matching `predicate`) during `ms`; an empty list is quiet. */
  async quietFor(
    ms: number,
    predicate: (message: WsMessage) => boolean = () => true,
  ): Promise<WsMessage[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.queue.filter(predicate);
  }

  /** Resolves with the close code and reason once the socket is closed (or rejects on timeout). */
  waitClosed(timeoutMs = 10_000): Promise<Closed> {
    return new Promise((resolve, reject) => {
      const finish = (action: () => void) => {
        clearTimeout(timer);
        this.wakers.delete(check);
        action();
      };
      const check = () => {
        const closed = this.closed;
        if (closed) finish(() => resolve(closed));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`socket still open after ${timeoutMs} ms`))),
        timeoutMs,
      );
      this.wakers.add(check);
      check();
    });
  }

  close(): void {
    if (
      this.socket.readyState === WebSocket.OPEN ||
      this.socket.readyState === WebSocket.CONNECTING
    ) {
      this.socket.terminate();
    }
  }
}

/** The headers-only connection_init payload pytest sends (no `headers` key when there are none). */
export function connectionInitPayload(headers: Record<string, string>): Record<string, unknown> {
  return Object.keys(headers).length > 0 ? { headers } : {};
}

/**
 * A GraphQL response from the message that answered an operation: `data`/`next` payloads are
 * responses already; an `error` payload is the errors list (graphql-transport-ws), a response
 * with `errors`, or a single error object (legacy).
 */
export function responseFromMessage(message: WsMessage): unknown {
  const payload = message['payload'];
  if (message['type'] !== 'error') return payload;
  if (Array.isArray(payload)) return { errors: payload };
  if (isObject(payload) && 'errors' in payload) return payload;
  return { errors: [payload] };
}
