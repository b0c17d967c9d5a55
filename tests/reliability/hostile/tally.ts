/*
 * Counting what hostile requests got back. A request is a failure of the product when it is
 * answered with a 5xx, with an `unexpected`/`internal-error` code (whatever the status: a
 * batch answers 200 around its parts), with something that is not a clear error (no JSON, an
 * error without a message and a code), or not answered at all (a reset connection, a hang).
 */

export type Verdict = 'ok' | 'refused' | '5xx' | 'unexpected' | 'unclear' | 'reset' | 'hang';

/** Verdicts that count as fuzz_5xx: the product failed rather than refused. */
export const FAILURES: ReadonlySet<Verdict> = new Set([
  '5xx',
  'unexpected',
  'unclear',
  'reset',
  'hang',
]);

export interface KindCounts {
  requests: number;
  refused: number;
  ok: number;
  failures: number;
}

export class Tally {
  requests = 0;
  readonly verdicts: Record<Verdict, number> = {
    ok: 0,
    refused: 0,
    '5xx': 0,
    unexpected: 0,
    unclear: 0,
    reset: 0,
    hang: 0,
  };
  readonly statuses: Record<string, number> = {};
  readonly codes: Record<string, number> = {};
  readonly byKind: Record<string, KindCounts> = {};
  /** The first failures, for the report and the assertion message. */
  readonly examples: string[] = [];

  count(kind: string, verdict: Verdict, status: number | string, codes: string[], detail = '') {
    this.requests += 1;
    this.verdicts[verdict] += 1;
    this.statuses[String(status)] = (this.statuses[String(status)] ?? 0) + 1;
    for (const code of codes) this.codes[code] = (this.codes[code] ?? 0) + 1;
    const entry = (this.byKind[kind] ??= { requests: 0, refused: 0, ok: 0, failures: 0 });
    entry.requests += 1;
    if (FAILURES.has(verdict)) {
      entry.failures += 1;
      if (this.examples.length < 20)
        this.examples.push(`[${kind}] ${verdict} ${status}: ${detail.slice(0, 600)}`);
    } else if (verdict === 'refused') entry.refused += 1;
    else entry.ok += 1;
    return verdict;
  }

  /** fuzz_5xx: every request the product failed (5xx, unexpected, unclear, reset, hang). */
  get failures(): number {
    return [...FAILURES].reduce((sum, verdict) => sum + this.verdicts[verdict], 0);
  }

  summary() {
    return {
      requests: this.requests,
      verdicts: this.verdicts,
      statuses: this.statuses,
      codes: this.codes,
      byKind: this.byKind,
      examples: this.examples,
    };
  }
}

/** Codes that mean the server failed, not the request. */
export const SERVER_FAILURE_CODES = new Set(['unexpected', 'internal-error', 'internal']);

interface GraphqlError {
  message?: unknown;
  extensions?: { code?: unknown };
}

/**
 * Node's HTTP parser answers headers over its 16 kB limit itself, with a bare 431 (no body):
 * the standard answer, and as clear as any.
 */
export const HEADERS_TOO_LARGE = 431;

/**
 * A GraphQL engine's answer: a body (or batch of bodies) with `data` or `errors`, each error
 * with a message and a code. Returns the verdict and the error codes seen.
 */
export function judgeGraphql(status: number, text: string): { verdict: Verdict; codes: string[] } {
  if (status >= 500) return { verdict: '5xx', codes: [] };
  if (status === HEADERS_TOO_LARGE) return { verdict: 'refused', codes: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { verdict: 'unclear', codes: [] };
  }
  const bodies = Array.isArray(parsed) ? parsed : [parsed];
  const codes: string[] = [];
  let refused = false;
  for (const body of bodies) {
    if (body === null || typeof body !== 'object') return { verdict: 'unclear', codes };
    const errors = (body as { errors?: unknown }).errors;
    if (errors === undefined) {
      if (!('data' in body)) return { verdict: 'unclear', codes };
      continue;
    }
    if (!Array.isArray(errors) || errors.length === 0) return { verdict: 'unclear', codes };
    refused = true;
    for (const error of errors as GraphqlError[]) {
      const code = error?.extensions?.code;
      if (typeof error?.message !== 'string' || error.message === '' || typeof code !== 'string')
        return { verdict: 'unclear', codes };
      codes.push(code);
      if (SERVER_FAILURE_CODES.has(code)) return { verdict: 'unexpected', codes };
    }
  }
  if (status >= 400 || refused) return { verdict: 'refused', codes };
  return { verdict: 'ok', codes };
}

/**
 * Sends one hostile request; a hang (no answer within `timeoutMs`) or a dropped connection is
 * counted in `tally` under `kind` and returned as its verdict, any answer is returned whole.
 */
export async function sendCounted(
  tally: Tally,
  kind: string,
  request: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array | undefined;
  },
  described: string,
  timeoutMs: number,
): Promise<{ status: number; text: string } | Verdict> {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    if (isHang(error)) return tally.count(kind, 'hang', 'hang', [], described);
    if (!(error instanceof TypeError && error.message === 'fetch failed')) throw error;
    return tally.count(kind, 'reset', 'reset', [], `${describeFetchError(error)} ${described}`);
  }
}

/** Whether a fetch failure is the connection dropping (reset, closed, refused). */
export function isHang(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** A fetch failure as text, with its cause (undici hides the socket error there). */
export function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error
    ? `${error.message}: ${(cause as NodeJS.ErrnoException).code ?? ''} ${cause.message}`
    : error.message;
}
