import client from 'prom-client';

/*
 * A service's Prometheus registry: Node's process metrics, HTTP requests by method, route
 * pattern and status class with their latency, errors, and whatever gauges the service adds.
 * Route patterns, never raw paths: an id in a path would make one series per order.
 */

export type { Registry } from 'prom-client';
export { Counter, Gauge, Histogram } from 'prom-client';

export interface ServiceMetrics {
  registry: client.Registry;
  /** Records one answered HTTP request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Counts an error the service logged (handler failures, 5xx). */
  countError(kind: string): void;
}

/** Methods kept as labels; anything else is `OTHER` (a client picks the method). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const errors = new client.Counter({
    name: 'errors_total',
    help: 'Errors: answers with a 5xx status, and failures the service logged.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const label = METHODS.has(method) ? method : 'OTHER';
      requests.inc({ method: label, route, status: statusClass(status) });
      duration.observe({ method: label, route }, seconds);
      if (status >= 500) errors.inc({ kind: 'http_5xx' });
    },
    countError(kind) {
      errors.inc({ kind });
    },
  };
}

/** The counts node-postgres keeps on a pool. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The database pool's connections (total, idle) and the clients waiting for one. */
export function observePool(registry: client.Registry, pool: PoolCounts): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('db_pool_connections', 'Connections the database pool holds.', () => pool.totalCount);
  gauge('db_pool_idle_connections', 'Idle connections in the pool.', () => pool.idleCount);
  gauge('db_pool_waiting_clients', 'Queries waiting for a connection.', () => pool.waitingCount);
}

/**
 * A gauge read at scrape time by `read` (one cheap query). A failed read (the database away)
 * leaves the gauge out of that scrape rather than failing the whole page.
 */
export function scrapeGauge<L extends string>(
  registry: client.Registry,
  options: { name: string; help: string; labelNames?: readonly L[] },
  read: (gauge: client.Gauge<L>) => Promise<void>,
): client.Gauge<L> {
  return new client.Gauge<L>({
    ...options,
    labelNames: options.labelNames ?? [],
    registers: [registry],
    async collect() {
      this.reset();
      await read(this).catch(() => this.reset());
    },
  });
}
