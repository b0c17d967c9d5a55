import http from 'node:http';
import https from 'node:https';

import type { HeaderMetadata } from '../metadata/model.ts';

import { ActionError } from './errors.ts';

/*
 * The HTTP leg of an action: the handler URL and headers resolved from the environment, the
 * client's headers forwarded when the action asks for it, one POST with a deadline.
 */

/** What Hasura sends as User-Agent (handlers check its prefix). */
export const USER_AGENT = 'hasura-graphql-engine/v2-node';

export type Environment = Readonly<Record<string, string | undefined>>;

const TEMPLATE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Resolves `{{ENV_VAR}}` templates (handler URLs). */
export function resolveTemplate(text: string, environment: Environment): string {
  return text.replace(TEMPLATE, (_match, name: string) => {
    const value = environment[name];
    if (value === undefined)
      throw new ActionError('unexpected', `Environment variable '${name}' not set`, {
        status: 500,
      });
    return value;
  });
}

/** The action's configured headers, `value_from_env` resolved. */
export function configuredHeaders(
  headers: readonly HeaderMetadata[],
  environment: Environment,
): Array<[string, string]> {
  return headers.map((header): [string, string] => {
    if ('value' in header && typeof header.value === 'string') return [header.name, header.value];
    const variable = String((header as { value_from_env: string }).value_from_env);
    const value = environment[variable];
    if (value === undefined)
      throw new ActionError('unexpected', `Environment variable '${variable}' not set`, {
        status: 500,
      });
    return [header.name, value];
  });
}

/**
 * Client headers Hasura never forwards: its own list of request-specific headers, hop-by-hop
 * headers (RFC 9110 7.6.1), and the encoding of a body the handler does not receive.
 */
const NOT_FORWARDED = new Set([
  'content-length',
  'content-md5',
  'user-agent',
  'host',
  'origin',
  'referer',
  'accept',
  'accept-encoding',
  'accept-language',
  'accept-datetime',
  'cache-control',
  'connection',
  'dnt',
  'content-type',
  'content-encoding',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'http2-settings',
]);

const FORWARDED_AS: Record<string, string> = {
  host: 'X-Forwarded-Host',
  'user-agent': 'X-Forwarded-User-Agent',
  origin: 'X-Forwarded-Origin',
};

/**
 * The client's headers as forwarded to the handler: `X-Forwarded-Host`, `-User-Agent` and
 * `-Origin`, then every header but the ones above and the session's own `x-hasura-*`
 * headers (the admin secret among them): session variables travel in the payload.
 */
export function forwardedClientHeaders(
  headers: Readonly<Record<string, string | undefined>>,
): Array<[string, string]> {
  const forwarded: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    const renamed = FORWARDED_AS[name.toLowerCase()];
    if (renamed && value !== undefined) forwarded.push([renamed, value]);
  }
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (
      value === undefined ||
      NOT_FORWARDED.has(lower) ||
      lower.startsWith('x-hasura-') ||
      lower.startsWith(':')
    )
      continue;
    forwarded.push([name, value]);
  }
  return forwarded;
}

/**
 * The request's headers: configured headers win over the defaults, which win over forwarded
 * client headers (a client can never replace a secret the metadata sends).
 */
export function mergeHeaders(
  configured: Array<[string, string]>,
  client: Array<[string, string]>,
): Array<[string, string]> {
  const merged = new Map<string, [string, string]>();
  const defaults: Array<[string, string]> = [
    ['Content-Type', 'application/json'],
    ['User-Agent', USER_AGENT],
  ];
  for (const entry of [...client, ...defaults, ...configured]) {
    const lower = entry[0].toLowerCase();
    // The body's framing is ours to set.
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection')
      continue;
    merged.set(lower, entry);
  }
  return [...merged.values()];
}

export interface WebhookResponse {
  status: number;
  /** Names as the handler wrote them, in order. */
  headers: Array<[string, string]>;
  body: string;
}

/** The handler could not be reached or did not answer in time. */
export class WebhookTransportError extends Error {
  override name = 'WebhookTransportError';
  constructor(
    readonly type: 'timeout' | 'connection_failure' | 'invalid_url' | 'invalid_request',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Connections to action handlers are kept alive and reused (Hasura's own HTTP client pools them
 * too). A connection per call cost a TCP handshake and teardown on both sides every time and
 * left a TIME_WAIT socket behind on the engine's: between two hosts (where the kernel does not
 * reuse them early, as it does on loopback) a few hundred action calls a second use up the
 * ephemeral ports within a minute, and every call after that fails to connect.
 *
 * An idle socket is closed after IDLE_SOCKET_MS, and at least a second before the handler's
 * announced `Keep-Alive: timeout=N` runs out (Node's agent takes that second off the hint), so
 * the engine does not write on a socket the handler is closing. Should it still meet one (a
 * handler that restarted, or announced no timeout), see `isStaleSocket`.
 */
export const IDLE_SOCKET_MS = 4_000;

const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' } as const;
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

/**
 * A kept-alive socket the handler had already closed: the write failed or the connection was
 * reset before a single byte of an answer came back. Nothing was processed then (a server closes
 * only a connection with no request on it), so the call is made once more on a new socket, as
 * Node's documentation advises and as Hasura's HTTP client does. Anything else (a fresh
 * connection failing, a reset once the answer started, a timeout) is never retried: an action
 * is not idempotent.
 */
function isStaleSocket(
  request: http.ClientRequest,
  error: NodeJS.ErrnoException,
  answered: boolean,
): boolean {
  if (!request.reusedSocket || answered) return false;
  return (
    error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.message === 'socket hang up'
  );
}

/** POSTs `body` to `url`; rejects with a WebhookTransportError on failure or after `timeoutMs`. */
export function postWebhook(
  url: string,
  headers: Array<[string, string]>,
  body: string,
  timeoutMs: number,
): Promise<WebhookResponse> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new WebhookTransportError('invalid_url', `invalid URL: ${url}`));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.reject(
      new WebhookTransportError('invalid_url', `unsupported URL scheme: ${target.protocol}`),
    );
  }
  const client = target.protocol === 'https:' ? https : http;
  const agent = target.protocol === 'https:' ? agents.https : agents.http;
  const payload = Buffer.from(body, 'utf8');
  const requestHeaders = Object.fromEntries([
    ...headers,
    ['Content-Length', String(payload.length)],
  ]);
  return new Promise((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    const timer = setTimeout(() => {
      finish({ error: new WebhookTransportError('timeout', 'Response timeout') });
      request?.destroy();
    }, timeoutMs);
    const finish = (outcome: { error: Error } | { response: WebhookResponse }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.response);
    };
    const attempt = (retried: boolean) => {
      let answered = false;
      const onResponse = (response: http.IncomingMessage) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) =>
          finish({ error: new WebhookTransportError('connection_failure', error.message) }),
        );
        response.on('end', () => {
          const raw = response.rawHeaders;
          const pairs: Array<[string, string]> = [];
          for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
          finish({
            response: {
              status: response.statusCode ?? 0,
              headers: pairs,
              body: Buffer.concat(chunks).toString('utf8'),
            },
          });
        });
      };
      let current: http.ClientRequest;
      try {
        current = client.request(
          target,
          { method: 'POST', headers: requestHeaders, agent },
          onResponse,
        );
      } catch (error) {
        // Node refuses a header it cannot send (e.g. a newline in a value).
        finish({ error: new WebhookTransportError('invalid_request', (error as Error).message) });
        return;
      }
      request = current;
      current.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (!retried && isStaleSocket(current, error, answered)) {
          attempt(true);
          return;
        }
        finish({
          error: new WebhookTransportError(
            'connection_failure',
            `ConnectionFailure: ${error.code ?? error.message}`,
          ),
        });
      });
      current.end(payload);
    };
    attempt(false);
  });
}
