import type { Logger } from '@app/shared/log';

import { EvmSource } from './evm/evm-source.ts';
import { NetworkWatcher } from './network-watcher.ts';
import type { Db } from './store.ts';

/*
 * A watcher for each configured network whose family is built. The family comes from
 * public.chain_networks (staff's), the endpoint from the service's configuration.
 */

export interface Watchers {
  networks: string[];
  stop(): Promise<void>;
}

export async function startWatchers(options: {
  db: Db;
  endpoints: ReadonlyArray<readonly [string, string]>;
  pollMs: number;
  keepDepth: number;
  logger: Logger;
}): Promise<Watchers> {
  const { db, logger } = options;
  const started: NetworkWatcher[] = [];
  const networks: string[] = [];
  for (const [network, url] of options.endpoints) {
    const { rows } = await db.query<{ family: string }>(
      'SELECT family FROM public.chain_networks WHERE network = $1',
      [network],
    );
    const family = rows[0]?.family;
    if (family !== 'evm') {
      logger.error(
        { network, family: family ?? null },
        family
          ? 'chain watcher: this network family is not watched yet; the network is left to staff'
          : 'chain watcher: no such network in public.chain_networks',
      );
      continue;
    }
    const watcher = new NetworkWatcher({
      db,
      network,
      source: (watchList) => new EvmSource(url, watchList),
      compareAs: (value) => value.toLowerCase(),
      pollMs: options.pollMs,
      keepDepth: options.keepDepth,
      logger,
    });
    watcher.start();
    started.push(watcher);
    networks.push(network);
  }
  if (networks.length === 0)
    logger.info(
      'chain watcher: no network configured (CHAIN_ENDPOINTS); payments are confirmed by staff',
    );
  return {
    networks,
    stop: async () => {
      await Promise.all(started.map((watcher) => watcher.stop()));
    },
  };
}
