import proxyaddr from 'proxy-addr';

import type { RequestHeaders } from '../auth/index.ts';
import { HasuraError } from '../errors.ts';

/*
 * A budget of engine time per visitor (issue 19, point 7; decision 020). A visitor (the
 * unauthorized role, who needs no account) could send one batch of 20 heavy operations that
 * kept the embedded database busy for seconds while everyone else waited. Each client address
 * now has a bucket of engine milliseconds: it holds at most `burstMs`, fills at
 * `refillMsPerSecond`, and every operation the visitor runs is paid for afterwards with the
 * time it took (wall time from planning to the answer, the database's and an action's
 * included). While the bucket is empty and the engine is shared (another client has an
 * operation in flight, or had one within the last second), the visitor's operations are refused
 * before they run (429, Retry-After). The rule is work-conserving: a visitor alone on an idle
 * engine harms nobody and is not refused, so one developer's browser, a test suite or a
 * benchmark on one address never trips it, while a heavy visitor yields to everyone else the
 * moment they are there. Signed-in roles are not
 * budgeted (they are accountable by their account, and their own limits live in the services),
 * but their operations in flight count as others waiting; the admin secret's do not (the
 * services' background work must not make a lone visitor wait).
 *
 * The client address is the socket's peer, unless the peer is one of the trusted proxies
 * (ENGINE_TRUST_PROXY, decision 017's rule): then proxy-addr walks X-Forwarded-For from the right
 * and stops at the first address that is not a trusted proxy. A client that reaches the engine
 * directly cannot choose its key by writing the header.
 *
 * Hasura's own answer when over a limit (Enterprise's rate limits; the community edition, which
 * production runs, has none) is the error code `rate-limit-exceeded` at path `$`
 * (hasura/graphql-engine issue 9705 shows the body); the same code is used here.
 */

export interface VisitorBudgetSettings {
  /** The most engine time a visitor may spend at once (the bucket's size), in ms. */
  burstMs: number;
  /** Engine time a visitor earns back per second, in ms. */
  refillMsPerSecond: number;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDR ranges, loopback, ...). */
  trustedProxies: readonly string[];
}

/**
 * A visitor may spend a second of engine time at once and a quarter of a second per second
 * after that: a page of the portal costs a visitor tens of milliseconds, while the batch that
 * showed the hole (20 operations, 4.8 s) is cut after its first second whenever anyone else is
 * waiting.
 */
export const DEFAULT_VISITOR_BUDGET: VisitorBudgetSettings = {
  burstMs: 1000,
  refillMsPerSecond: 250,
  trustedProxies: [],
};

export interface VisitorBudgetOptions extends VisitorBudgetSettings {
  /** Buckets kept at most; full buckets are forgotten first (they carry nothing). */
  maxClients?: number;
  now?: () => number;
}

interface Bucket {
  /** Milliseconds available; below zero is debt from an operation that overran. */
  level: number;
  /** When `level` was last brought up to date. */
  at: number;
}

const DEFAULT_MAX_CLIENTS = 50_000;
/**
 * How long another client's last operation keeps the engine counted as shared: someone asking
 * one question after another is between two of them most of the time.
 */
const SHARED_WINDOW_MS = 1000;

export type VisitorBudget = ReturnType<typeof createVisitorBudget>;

/** The refusal while a visitor's bucket is empty (429; the transport adds Retry-After). */
export const overBudget = (retryAfterS: number) =>
  new HasuraError(
    'rate-limit-exceeded',
    `too many requests from this address: retry in ${retryAfterS} s`,
    '$',
    429,
  );

export function createVisitorBudget(options: VisitorBudgetOptions) {
  const now = options.now ?? (() => performance.now());
  const trust = proxyaddr.compile([...options.trustedProxies]);
  const maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS;
  const buckets = new Map<string, Bucket>();
  /** Operations in flight per client, and in all. */
  const inFlight = new Map<string, number>();
  let inFlightTotal = 0;
  /** The last two distinct clients whose operations ended, newest first. */
  let lastEnded: Array<{ client: string; at: number }> = [];

  const shared = (client: string, at: number) =>
    inFlightTotal - (inFlight.get(client) ?? 0) > 0 ||
    lastEnded.some((entry) => entry.client !== client && at - entry.at < SHARED_WINDOW_MS);

  const refreshed = (bucket: Bucket, at: number): Bucket => {
    const earned = ((at - bucket.at) / 1000) * options.refillMsPerSecond;
    bucket.level = Math.min(options.burstMs, bucket.level + earned);
    bucket.at = at;
    return bucket;
  };

  const bucketOf = (client: string): Bucket => {
    const at = now();
    const known = buckets.get(client);
    if (known) return refreshed(known, at);
    if (buckets.size >= maxClients) forgetSome(at);
    const bucket = { level: options.burstMs, at };
    buckets.set(client, bucket);
    return bucket;
  };

  /** Forgets full buckets; if every bucket is in use, the oldest ones (insertion order). */
  const forgetSome = (at: number) => {
    for (const [client, bucket] of buckets) {
      if (refreshed(bucket, at).level >= options.burstMs) buckets.delete(client);
    }
    for (const client of buckets.keys()) {
      if (buckets.size < maxClients) break;
      buckets.delete(client);
    }
  };

  return {
    /**
     * The address an operation is charged to: the peer the engine observed (appended last to
     * X-Forwarded-For by headersOf), or an earlier entry when every hop after it is trusted.
     */
    clientOf(headers: RequestHeaders): string {
      const entries = (headers['x-forwarded-for'] ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const peer = entries.pop();
      if (peer === undefined) return 'unknown';
      const socket = { remoteAddress: peer };
      return proxyaddr(
        {
          headers: entries.length > 0 ? { 'x-forwarded-for': entries.join(', ') } : {},
          socket,
          connection: socket,
        } as unknown as Parameters<typeof proxyaddr>[0],
        trust,
      );
    },

    /**
     * Undefined when the visitor may run an operation now; else the seconds until their bucket
     * refills (they are refused only while the engine is shared).
     */
    wait(client: string): number | undefined {
      const bucket = bucketOf(client);
      if (bucket.level >= 0 || !shared(client, bucket.at)) return undefined;
      return Math.max(1, Math.ceil(-bucket.level / options.refillMsPerSecond));
    },

    /** Counts an operation of `client` in flight until the returned function is called. */
    begin(client: string): () => void {
      inFlight.set(client, (inFlight.get(client) ?? 0) + 1);
      inFlightTotal += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        const at = now();
        lastEnded = [{ client, at }, ...lastEnded.filter((entry) => entry.client !== client)].slice(
          0,
          2,
        );
        inFlightTotal -= 1;
        const left = (inFlight.get(client) ?? 1) - 1;
        if (left > 0) inFlight.set(client, left);
        else inFlight.delete(client);
      };
    },

    /** Pays for an operation that took `ms`. */
    charge(client: string, ms: number): void {
      bucketOf(client).level -= ms;
    },

    /** How many clients have a bucket (for tests and metrics). */
    get clients(): number {
      return buckets.size;
    },
  };
}
