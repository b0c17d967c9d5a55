import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import type { RequestHeaders } from '../auth/index.ts';
import { HasuraError } from '../errors.ts';

import { applyCors, type CorsPolicy } from './cors.ts';
import type { GraphQLHandler } from './graphql-handler.ts';

/** Largest request body accepted (Hasura has no default; a bound keeps one client from exhausting memory). */
export const MAX_BODY_BYTES = 1024 * 1024;

class BodyTooLargeError extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

const sendError = (response: ServerResponse, status: number, error: HasuraError) =>
  send(response, status, JSON.stringify({ errors: [error] }));

export function headersOf(request: IncomingMessage): RequestHeaders {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * The engine's HTTP surface: POST /v1/graphql (request errors answered with 200, as Hasura
 * does), POST /v1alpha1/graphql (the same API with error statuses), GET /healthz; CORS per
 * `cors` (http/cors.ts).
 */
export function createHttpServer(handler: GraphQLHandler, cors?: CorsPolicy): Server {
  return createServer((request, response) => {
    void (async () => {
      if (applyCors(cors, request, response)) return;
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
        send(response, 200, '"OK"');
        return;
      }
      const alpha = url.pathname === '/v1alpha1/graphql';
      if (url.pathname !== '/v1/graphql' && !alpha) {
        sendError(response, 404, new HasuraError('not-found', 'resource does not exist', '$', 404));
        return;
      }
      if (request.method !== 'POST') {
        sendError(
          response,
          405,
          new HasuraError('bad-request', 'only POST is allowed on this endpoint', '$', 405),
        );
        return;
      }
      let text: string;
      try {
        text = await readBody(request);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          sendError(
            response,
            413,
            new HasuraError(
              'bad-request',
              `request body exceeds ${MAX_BODY_BYTES} bytes`,
              '$',
              413,
            ),
          );
          return;
        }
        throw error;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        sendError(
          response,
          alpha ? 400 : 200,
          new HasuraError(
            'invalid-json',
            'Error in $: Failed reading: not a valid json value',
            '$',
          ),
        );
        return;
      }
      const result = await handler.handle(payload, headersOf(request));
      const status = result.error
        ? alpha || result.error.status >= 500
          ? result.error.status
          : 200
        : 200;
      send(response, status, result.body);
    })().catch(() => {
      if (!response.headersSent)
        sendError(
          response,
          500,
          new HasuraError('unexpected', 'an unexpected error occurred', '$', 500),
        );
      else response.destroy();
    });
  });
}
