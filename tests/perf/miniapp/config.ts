import { parseArgs } from 'node:util';

import { integer } from '../web/config.ts';

/* Settings of `npm run bench:miniapp`. The defaults take about three minutes on the 2-core machine. */

export interface MiniappBenchConfig {
  /** Lighthouse runs per page (the median is reported); pages interleave within a round. */
  runs: number;
  /** The first of the stack's ports (web); the others follow (web/stack.ts). */
  portBase: number;
  /** Where the JSON report goes (relative to the repository root). */
  output: string;
  /** Also keep each run's full Lighthouse report beside the JSON (miniapp-<page>-<run>.json). */
  keepReports: boolean;
  /** Also measure the floor page (an empty React 18 app, tests/perf/web/floor). */
  floor: boolean;
}

/*
 * Not web-bench's 25500, so both can run at once. Clear of `npm start` (3000, 4000, 4100, 4200,
 * 8080, 54320) and of every end-to-end port offset (23000-23320 plus multiples of 1000).
 */
export const MINIAPP_PORT_BASE = 26500;

const HELP = `Usage: npm run bench:miniapp -- [options]

  --runs N          Lighthouse runs per page, median reported (default 3, minimum 1)
  --port-base N     first port of the stack: web N, auth N+40, engine N+80, actions N+100,
                    bot N+200, database N+320, floor page N+400 (default ${MINIAPP_PORT_BASE};
                    keep them below 32768)
  --output FILE     JSON report (default bench-results/miniapp.json)
  --keep-reports    also write every run's Lighthouse JSON beside it
  --no-floor        skip the floor page (an empty React 18 app measured in the same rounds)
`;

export function parseMiniappConfig(argv: string[]): MiniappBenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string' },
      'port-base': { type: 'string' },
      output: { type: 'string' },
      'keep-reports': { type: 'boolean' },
      'no-floor': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const portBase = integer(values['port-base'], MINIAPP_PORT_BASE, 'port-base', 1024);
  if (portBase + 400 >= 32768) throw new Error('--port-base: the ports must stay below 32768');
  return {
    runs: integer(values.runs, 3, 'runs', 1),
    portBase,
    output: values.output ?? 'bench-results/miniapp.json',
    keepReports: values['keep-reports'] ?? false,
    floor: !(values['no-floor'] ?? false),
  };
}
