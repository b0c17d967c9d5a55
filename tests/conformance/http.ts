import http from 'node:http';

/*
 * A plain HTTP POST with node:http (not fetch): any header may be sent, including Cookie,
 * no connection is kept alive between cases, and a timeout or abort always settles it.
 */

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body; undefined when the body is not JSON. */
  json: unknown;
}

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<HttpResponse> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(payload.length),
          ...headers,
        },
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text.length > 0 ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    request.setTimeout(options.timeoutMs ?? 10_000, () => {
      request.destroy(new Error(`no response within ${options.timeoutMs ?? 10_000} ms`));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Reads a request body fully. */
export function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Listens on 127.0.0.1 and, when the machine has IPv6, on ::1 too (`localhost` may be either). */
export async function listenLocal(
  handler: http.RequestListener,
  port: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const listen = (server: http.Server, host: string, wanted: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(wanted, host, () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : wanted);
      });
    });
  const v4 = http.createServer(handler);
  const bound = await listen(v4, '127.0.0.1', port);
  const servers = [v4];
  const v6 = http.createServer(handler);
  try {
    await listen(v6, '::1', bound);
    servers.push(v6);
  } catch {
    // No IPv6 loopback (or the port is taken there): 127.0.0.1 alone.
  }
  return {
    port: bound,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
}
