import http from 'node:http';
import https from 'node:https';

/*
 * One webhook call: POST a JSON body, with a deadline for the whole exchange (connect,
 * response and body) and an abort signal for shutdown. A fresh connection each time (no
 * keep-alive pool), so a receiver that restarted never meets a stale socket and nothing
 * stays open after close.
 */

export type HttpOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'error'; message: string; timedOut: boolean }
  | { kind: 'aborted' };

/** How much of a response body is kept for the invocation log. */
export const MAX_LOGGED_BODY = 64 * 1024;

export const USER_AGENT = 'hasura-graphql-engine (compatible; @app/engine)';

export function postJson(
  url: string,
  headers: Array<[string, string]>,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<HttpOutcome> {
  if (signal.aborted) return Promise.resolve({ kind: 'aborted' });
  const payload = Buffer.from(body, 'utf8');
  const requestHeaders: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  for (const [name, value] of headers) requestHeaders[name.toLowerCase()] = value;
  requestHeaders['content-length'] = String(payload.length);

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: HttpOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      headers: requestHeaders,
      agent: false,
    });
    const timer = setTimeout(() => {
      finish({
        kind: 'error',
        message: `webhook did not answer within ${timeoutMs} ms`,
        timedOut: true,
      });
      request.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish({ kind: 'aborted' });
      request.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });

    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        kind: 'error',
        message: error.code ? `${error.code}: ${error.message}` : error.message,
        timedOut: false,
      });
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept >= MAX_LOGGED_BODY) return;
        chunks.push(chunk);
        kept += chunk.length;
      });
      response.on('error', (error) =>
        finish({ kind: 'error', message: error.message, timedOut: false }),
      );
      response.on('end', () => {
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined)
            responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        finish({
          kind: 'response',
          status: response.statusCode ?? 0,
          headers: responseHeaders,
          body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_LOGGED_BODY),
        });
      });
    });
    request.end(payload);
  });
}

export const isSuccess = (outcome: HttpOutcome) =>
  outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;

/**
 * Hasura honours a failed response's `Retry-After` when it is a positive whole number of
 * seconds (not an HTTP date), and then retries even past `num_retries`.
 */
export function retryAfterSeconds(outcome: HttpOutcome): number | undefined {
  if (outcome.kind !== 'response') return undefined;
  const value = outcome.headers['retry-after']?.trim();
  if (!value || !/^\d+$/.test(value)) return undefined;
  const seconds = Number.parseInt(value, 10);
  return seconds > 0 ? seconds : undefined;
}

/** The `response` column of an invocation log, in Hasura's shape. */
export function loggedResponse(outcome: HttpOutcome): unknown {
  if (outcome.kind === 'response') {
    return {
      type: outcome.status >= 200 && outcome.status < 300 ? 'webhook_response' : 'client_error',
      data: {
        status: outcome.status,
        body: outcome.body,
        headers: Object.entries(outcome.headers).map(([name, value]) => ({ name, value })),
      },
      version: '2',
    };
  }
  return {
    type: 'client_error',
    data: { message: outcome.kind === 'error' ? outcome.message : 'aborted' },
    version: '2',
  };
}
