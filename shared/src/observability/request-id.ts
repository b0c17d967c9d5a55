import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/*
 * The request id every service takes from `x-request-id` (as the official Hasura engine does),
 * answers with, writes on its log lines and forwards on every call it makes for the request.
 */

export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may look like: short, and nothing a log reader or header could trip on. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's id when it has a safe shape, else `undefined`. */
export function parseRequestId(value: string | readonly string[] | undefined): string | undefined {
  const single: string | undefined = typeof value === 'string' ? value : value?.[0];
  return typeof single === 'string' && SAFE_REQUEST_ID.test(single) ? single : undefined;
}

/** The caller's id when it has a safe shape, else a new one. */
export function requestIdFrom(value: string | readonly string[] | undefined): string {
  return parseRequestId(value) ?? randomUUID();
}

const current = new AsyncLocalStorage<string>();

/** Runs `work` with `id` as the current request's id (for calls made on its behalf). */
export function runWithRequestId<T>(id: string, work: () => T): T {
  return current.run(id, work);
}

/** The id of the request being served, when there is one. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

let fetchWrapped = false;

/**
 * Makes the process's `fetch` send the current request's id to the services `forwardTo`
 * accepts (by URL), so calls that code shared with the browser makes while rendering on the
 * server (the web portal's loaders) carry it without knowing about it. Installed once.
 */
export function forwardRequestIdOnFetch(forwardTo: (url: URL) => boolean): void {
  if (fetchWrapped) return;
  fetchWrapped = true;
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const id = currentRequestId();
    if (id === undefined) return original(input, init);
    let url: URL;
    try {
      url = new URL(input instanceof Request ? input.url : String(input));
    } catch {
      return original(input, init);
    }
    if (!forwardTo(url)) return original(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    if (!headers.has(REQUEST_ID_HEADER)) headers.set(REQUEST_ID_HEADER, id);
    return original(input, { ...init, headers });
  };
}
