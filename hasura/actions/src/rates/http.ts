import { RateProviderError } from './types.ts';

/** Options of a market provider's HTTP client. */
export interface HttpOptions {
  /** Base URL of the exchange's public REST API; tests point it at a local server. */
  baseUrl?: string;
  /** Abort a request (connect, headers and body) after this many milliseconds. */
  timeoutMs?: number;
}

/** Default request timeout: a rates refresh must not hang on one slow exchange. */
export const DEFAULT_TIMEOUT_MS = 5_000;

function retryAfter(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * GETs `url` with global fetch and parses the JSON body. Every failure becomes a
 * {@link RateProviderError}: `timeout` (AbortSignal.timeout fired), `network-error`,
 * `rate-limited` (HTTP 429, or Binance's 418 IP ban), `http-error` (any other non-2xx; the
 * body's first 200 characters are kept in the message) and `malformed-response` (not JSON).
 */
export async function getJson(provider: string, url: URL, timeoutMs: number): Promise<unknown> {
  let text: string;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new RateProviderError(provider, 'timeout', `no answer within ${timeoutMs} ms`, {
        cause: error,
      });
    }
    throw new RateProviderError(provider, 'network-error', `request to ${url.host} failed`, {
      cause: error,
    });
  }
  if (!response.ok) {
    const status = response.status;
    const limited = status === 429 || status === 418;
    throw new RateProviderError(
      provider,
      limited ? 'rate-limited' : 'http-error',
      `HTTP ${status}: ${text.slice(0, 200)}`,
      { status, retryAfterSeconds: retryAfter(response.headers.get('retry-after')) },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RateProviderError(provider, 'malformed-response', 'the body is not JSON', {
      status: response.status,
      cause: error,
    });
  }
}
