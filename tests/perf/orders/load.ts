import http from 'node:http';

import { summarize, type LatencySummary } from '../engine/stats.ts';

/*
 * The closed loop both paths run under, so their figures are measured the same way:
 * `connections` clients, each starting its next order as soon as the previous one is
 * answered, until `durationS` has passed. Orders already started then are finished and
 * counted, and the elapsed time runs until the last of them ends. Latency is taken around
 * each call with performance.now() in this process.
 */

/** One order: resolves when it was created, throws (with a reason) when it was not. */
export type OrderTask = (sequence: number) => Promise<void>;

export interface RunResult {
  /** Orders created. */
  orders: number;
  /** Orders refused or failed, by reason (the first line of the error). */
  errors: number;
  errorReasons: Record<string, number>;
  elapsedS: number;
  /** Created orders per second. */
  ordersPerS: number;
  /** Latency of the created orders (ms). */
  latencyMs: LatencySummary;
}

const MAX_REASONS = 20;

export async function runClosedLoop(options: {
  connections: number;
  durationS: number;
  /** The first sequence number; each call gets the next one (unique keys across runs). */
  firstSequence: number;
  task: OrderTask;
}): Promise<{ result: RunResult; samples: number[]; nextSequence: number }> {
  let sequence = options.firstSequence;
  let orders = 0;
  let errors = 0;
  const reasons = new Map<string, number>();
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + options.durationS * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const at = performance.now();
      try {
        await options.task(sequence++);
        latencies.push(performance.now() - at);
        orders += 1;
      } catch (error) {
        errors += 1;
        const reason = (error instanceof Error ? error.message : String(error))
          .split('\n')[0]!
          .slice(0, 300);
        if (reasons.has(reason) || reasons.size < MAX_REASONS)
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        else reasons.set('(other)', (reasons.get('(other)') ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, () => client()));
  const elapsedS = (performance.now() - started) / 1000;
  return {
    result: {
      orders,
      errors,
      errorReasons: Object.fromEntries(reasons),
      elapsedS,
      ordersPerS: elapsedS > 0 ? orders / elapsedS : 0,
      latencyMs: summarize(latencies),
    },
    samples: latencies,
    nextSequence: sequence,
  };
}

/** A minimal keep-alive HTTP client (node:http): less of the shared CPU than fetch spends. */
export class HttpClient {
  private readonly agent: http.Agent;
  private readonly target: URL;

  constructor(url: string, connections: number) {
    this.target = new URL(url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  post(headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
    const payload = Buffer.from(body, 'utf8');
    return new Promise((resolve, reject) => {
      const request = http.request(
        this.target,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': String(payload.length) },
          timeout: 30_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout after 30 s')));
      request.on('error', reject);
      request.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
