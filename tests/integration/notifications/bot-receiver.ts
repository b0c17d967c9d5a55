import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook call the receiver got. */
export interface BotDelivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    id: string;
    trigger: { name: string };
    table: { schema: string; name: string };
    event: {
      op: string;
      data: { old: Record<string, unknown> | null; new: Record<string, unknown> | null };
      session_variables: Record<string, string> | null;
    };
    delivery_info: { max_retries: number; current_retry: number };
  };
}

/**
 * Stands in for the bot service's event endpoint (BOT_EVENTS_URL): a loopback HTTP server that
 * records every JSON POST and answers `status` (200 unless a test changes it).
 */
export interface BotReceiver {
  url: string;
  deliveries: BotDelivery[];
  status: number;
  /** The first delivery (so far or later) that satisfies `match`. */
  waitFor(match: (delivery: BotDelivery) => boolean, timeoutMs?: number): Promise<BotDelivery>;
  close(): Promise<void>;
}

export async function startBotReceiver(): Promise<BotReceiver> {
  const deliveries: BotDelivery[] = [];
  const waiters = new Set<() => void>();
  const receiver = {
    status: 200,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        deliveries.push({
          path: req.url ?? '',
          headers: req.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as BotDelivery['body'],
        });
      } catch {
        // Not JSON: recorded nowhere; the engine never sends such a body.
      }
      for (const wake of waiters) wake();
      res.writeHead(receiver.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    waitFor(match: (delivery: BotDelivery) => boolean, timeoutMs = 10_000) {
      return new Promise<BotDelivery>((resolve, reject) => {
        const check = () => {
          const found = deliveries.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching bot delivery within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
