import { createServer, type Server, type Socket } from 'node:net';

import type { PGlite } from '@electric-sql/pglite';

/*
 * Serves one PGlite backend to many PostgreSQL clients over TCP. PGlite is a single session, so
 * the clients take turns, and a turn must never split what the backend sees as one unit:
 *
 * - an extended-query group (Parse, Bind, Describe, Execute ... up to Sync) from one client;
 *   interleaving another client's Parse in between would replace the unnamed statement and
 *   run one client's SQL with the other's parameters;
 * - a whole transaction: from BEGIN to COMMIT only the client that opened it is served.
 *
 * @electric-sql/pglite-socket schedules single messages, which breaks the first rule under
 * concurrent load; this server keeps a client as the owner until its unit ends.
 */

const SSL_REQUEST_CODE = 80877103;
const CANCEL_REQUEST_CODE = 80877102;
const PROTOCOL_V3 = 196608;

/** Message types after which the backend is at a boundary between units of work. */
const UNIT_END = new Set(['S', 'Q', 'X', 'p']);

interface Pending {
  client: Client;
  message: Uint8Array;
  /** Startup and authentication messages end a unit whatever their first byte is. */
  endsUnit: boolean;
}

class Client {
  private buffer = Buffer.alloc(0);
  private started = false;
  closed = false;

  constructor(
    readonly socket: Socket,
    private readonly enqueue: (pending: Pending) => void,
  ) {}

  /** Splits incoming bytes into protocol messages and queues each one. */
  receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        const code = this.buffer.readInt32BE(4);
        if (this.buffer.length < length) return;
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST_CODE) {
          this.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST_CODE) continue;
        if (code !== PROTOCOL_V3) {
          this.socket.destroy();
          return;
        }
        this.started = true;
        this.enqueue({ client: this, message: new Uint8Array(message), endsUnit: true });
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) return;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      const type = String.fromCharCode(message[0]!);
      this.enqueue({
        client: this,
        message: new Uint8Array(message),
        endsUnit: UNIT_END.has(type),
      });
    }
  }
}

export class EmbeddedSocketServer {
  private readonly server: Server;
  private readonly clients = new Set<Client>();
  private queue: Pending[] = [];
  /** The client whose unit of work is in progress; only it is served until the unit ends. */
  private owner: Client | undefined;
  private pumping: Promise<void> | undefined;
  /** Set by close(): no message reaches the backend any more, which is about to be closed. */
  private closed = false;

  constructor(
    private readonly db: PGlite,
    private readonly maxConnections: number,
  ) {
    this.server = createServer((socket) => this.accept(socket));
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /**
   * Stops serving: disconnects every client and waits for the message being served, so the
   * backend can be closed next. Clients that disconnect meanwhile never touch it again.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.queue = [];
    for (const client of this.clients) {
      client.closed = true;
      client.socket.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.pumping;
  }

  private accept(socket: Socket): void {
    if (this.clients.size >= this.maxConnections) {
      // A client that resets the refused connection must not become an uncaught error.
      socket.on('error', () => socket.destroy());
      socket.end();
      return;
    }
    socket.setNoDelay(true);
    const client = new Client(socket, (pending) => {
      this.queue.push(pending);
      void this.pump();
    });
    this.clients.add(client);
    socket.on('data', (chunk: Buffer) => client.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void this.disconnect(client));
  }

  private async disconnect(client: Client): Promise<void> {
    client.closed = true;
    this.clients.delete(client);
    this.queue = this.queue.filter((pending) => pending.client !== client);
    if (this.closed) return;
    if (this.owner === client) {
      // A client gone mid-transaction must not leave the single session inside it. Wait for
      // the message being served first: the backend runs one thing at a time.
      await this.pumping;
      if (this.closed) return;
      if (this.owner === client) {
        if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => {});
        this.owner = undefined;
      }
    }
    void this.pump();
  }

  private next(): Pending | undefined {
    if (this.owner) {
      const index = this.queue.findIndex((pending) => pending.client === this.owner);
      return index === -1 ? undefined : this.queue.splice(index, 1)[0];
    }
    return this.queue.shift();
  }

  /** Serves queued messages one at a time, keeping each unit of work together. */
  private pump(): Promise<void> {
    if (this.pumping || this.closed) return this.pumping ?? Promise.resolve();
    this.pumping = this.serve().finally(() => {
      this.pumping = undefined;
    });
    return this.pumping;
  }

  private async serve(): Promise<void> {
    for (let pending = this.next(); pending && !this.closed; pending = this.next()) {
      const { client, message, endsUnit } = pending;
      if (client.closed) continue;
      try {
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(message, {
            onRawData: (data: Uint8Array) => {
              // A copy: `data` is a view of PGlite's memory, which the next message reuses
              // (or grows, detaching it) while a large answer still waits in the socket's
              // buffer. Written as is, a result of a few megabytes reached the client
              // garbled ("received invalid response") or never arrived (issue 11).
              if (!client.closed && data.length > 0) client.socket.write(Buffer.from(data));
            },
          }),
        );
      } catch {
        client.socket.destroy();
      }
      if (this.closed) return;
      this.owner = !endsUnit || this.db.isInTransaction() ? client : undefined;
    }
  }
}
