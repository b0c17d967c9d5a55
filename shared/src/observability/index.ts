/*
 * Observability every service shares: request ids (request-id.ts), the access-log line and
 * GET /metrics (http.ts), and the Prometheus registry with its common metrics (metrics.ts).
 */
export * from './http.ts';
export * from './metrics.ts';
export * from './request-id.ts';
export * from './env.ts';
