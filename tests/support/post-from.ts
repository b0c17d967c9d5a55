import http from 'node:http';

/** An answer to {@link postJsonFrom}. */
export interface AnswerFrom {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** From sending to the last byte of the answer. */
  ms: number;
}

/**
 * POSTs a JSON body from the local address `from` (e.g. 127.0.0.21), on a connection of its
 * own, so the address a service sees is the one the kernel gives that client: tests of
 * per-address rules use it to be several clients on one machine.
 */
export function postJsonFrom(
  url: string,
  body: unknown,
  from: string,
  headers: Record<string, string> = {},
): Promise<AnswerFrom> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
