import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type pg from 'pg';

import { introspect } from '../catalog/introspect.ts';
import { loadMetadata } from '../metadata/load.ts';
import type { Metadata } from '../metadata/model.ts';
import { buildSchemaModel } from '../schema/build.ts';
import type { SchemaModel } from '../schema/model.ts';

/*
 * Test support for the event trigger suites: a local webhook receiver that records every
 * call and answers as the test says, and the metadata + schema model a worker needs.
 */

export type Reply =
  | { status?: number; headers?: Record<string, string>; delayMs?: number; body?: string }
  /** Never answers (until the receiver stops). */
  | 'hang'
  /** Drops the connection without an answer. */
  | 'reset';

export interface ReceivedCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  startedAt: number;
  /** Another call with the same body.id was being handled when this one arrived. */
  overlapped: boolean;
  /** The status answered (undefined for hang / reset). */
  status?: number;
}

export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  /** Decides the answer to each call; by default 200. */
  reply: (call: ReceivedCall, receiver: WebhookReceiver) => Reply = () => ({ status: 200 });
  port = 0;
  private server: http.Server | undefined;
  private readonly active = new Map<string, number>();
  private readonly pending = new Set<http.ServerResponse>();

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get overlaps(): number {
    return this.calls.filter((call) => call.overlapped).length;
  }

  /** Calls whose answer was 2xx. */
  get delivered(): ReceivedCall[] {
    return this.calls.filter(
      (call) => call.status !== undefined && call.status >= 200 && call.status < 300,
    );
  }

  async start(port = this.port): Promise<void> {
    const server = http.createServer((request, response) => {
      // A caller gone mid-request (an aborted delivery) ends reading its body with an error:
      // the call is simply not recorded, as a real receiver would not have it either.
      this.handle(request, response).catch(() => response.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const response of this.pending) response.destroy();
    this.pending.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      // recorded as {}
    }
    const id = typeof body['id'] === 'string' ? body['id'] : '';
    const call: ReceivedCall = {
      path: request.url ?? '/',
      headers: request.headers,
      body,
      startedAt: Date.now(),
      overlapped: (this.active.get(id) ?? 0) > 0,
    };
    this.calls.push(call);
    this.active.set(id, (this.active.get(id) ?? 0) + 1);
    const done = () => this.active.set(id, (this.active.get(id) ?? 1) - 1);
    const reply = this.reply(call, this);
    if (reply === 'reset') {
      done();
      request.socket.destroy();
      return;
    }
    if (reply === 'hang') {
      this.pending.add(response);
      response.on('close', () => {
        this.pending.delete(response);
        done();
      });
      return;
    }
    if (reply.delayMs) {
      this.pending.add(response);
      await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      this.pending.delete(response);
    }
    call.status = reply.status ?? 200;
    done();
    if (response.destroyed) return;
    response.writeHead(call.status, reply.headers ?? {});
    response.end(reply.body ?? '');
  }

  /** Waits until `predicate` holds for the calls so far. */
  async waitFor(
    predicate: (calls: ReceivedCall[]) => boolean,
    timeoutMs = 10_000,
    what = 'webhook calls',
  ): Promise<ReceivedCall[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.calls)) {
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${what}; got ${this.calls.length} call(s): ${JSON.stringify(
            this.calls.map((call) => ({ path: call.path, status: call.status, body: call.body })),
            null,
            1,
          ).slice(0, 4000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.calls;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Loads metadata and builds the schema model against the database, as the engine does. */
export async function loadModel(
  pool: pg.Pool,
  object: unknown,
): Promise<{ metadata: Metadata; model: SchemaModel }> {
  const metadata = await loadMetadata({ object });
  const tables = (metadata.sources[0]?.tables ?? []).map((table) => table.table);
  const catalog = await introspect(pool, tables, []);
  return { metadata, model: buildSchemaModel(metadata, catalog) };
}
