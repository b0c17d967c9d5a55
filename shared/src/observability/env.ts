import * as z from 'zod';

/**
 * METRICS_TOKEN: the bearer Prometheus sends to read /metrics. Unset, /metrics answers only
 * callers on the same machine that no proxy forwarded (docs/decisions: metrics access).
 */
export const metricsToken = () =>
  z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, '16 to 256 printable characters, no spaces')
    .optional();
