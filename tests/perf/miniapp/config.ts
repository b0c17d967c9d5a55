import { parseOptions } from '../harness.ts';
import {
  LIGHTHOUSE_OPTIONS,
  lighthouseConfig,
  lighthouseHelp,
  type LighthouseBenchConfig,
} from '../web/config.ts';

/* Settings of `npm run bench:miniapp`. The defaults take about three minutes on the 2-core machine. */

export interface MiniappBenchConfig extends LighthouseBenchConfig {
  /** Also measure the floor page (an empty React 18 app, tests/perf/web/floor). */
  floor: boolean;
}

/*
 * Not web-bench's 25500, so both can run at once. Clear of `npm start` (3000, 4000, 4100, 4200,
 * 8080, 54320) and of every end-to-end port offset (23000-23320 plus multiples of 1000).
 */
export const MINIAPP_PORT_BASE = 26500;

const HELP = `${lighthouseHelp('miniapp', MINIAPP_PORT_BASE)}  --no-floor        skip the floor page (an empty React 18 app measured in the same rounds)
`;

export function parseMiniappConfig(argv: string[]): MiniappBenchConfig {
  const values = parseOptions(argv, HELP, {
    ...LIGHTHOUSE_OPTIONS,
    'no-floor': { type: 'boolean' },
  });
  return {
    ...lighthouseConfig(values, 'miniapp', MINIAPP_PORT_BASE),
    floor: !(values['no-floor'] ?? false),
  };
}
