import * as z from 'zod';

import { commaList, NodeEnv, port } from '@app/shared/env';
import { metricsToken } from '@app/shared/observability';

/** `NETWORK=url` pairs, comma-separated: each network's JSON-RPC (or API) endpoint. */
const endpoints = commaList().pipe(
  z.array(
    z
      .string()
      .regex(/^[A-Z0-9]{2,16}=https?:\/\/\S+$/, 'must be NETWORK=http(s)://endpoint pairs')
      .transform((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at), pair.slice(at + 1)] as const;
      }),
  ),
);

export const WatchersEnv = z.object({
  NODE_ENV: NodeEnv,
  WATCHERS_PORT: port(4300),
  WATCHERS_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1),
  /**
   * The networks to watch and where: `ERC20=https://eth.example/rpc,BEP20=...`. A network is
   * watched only when given here (and known in public.chain_networks); nothing by default, so
   * no provider is hard-wired and a keyed endpoint stays in the operator's configuration.
   */
  CHAIN_ENDPOINTS: endpoints.default([]),
  /**
   * How often each network's head is read, in ms: a payment shows within this (and the page's
   * one-second refresh) of its block. One cheap request each time (eth_blockNumber), two more
   * per new block; raise it for a metered provider.
   */
  CHAIN_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(500),
  /** How deep a re-organisation is followed (above every currency's confirmations). */
  CHAIN_KEEP_DEPTH: z.coerce.number().int().min(2).max(10_000).default(64),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Bearer for GET /metrics; unset, only loopback callers may read it. */
  METRICS_TOKEN: metricsToken(),
});
export type WatchersEnv = z.infer<typeof WatchersEnv>;
