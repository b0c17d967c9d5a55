import { parseArgs } from 'node:util';

import { DEFAULT_PORT_BASE } from './stack.ts';

/* Settings of `npm run bench:web`. The defaults take about five minutes on the 2-core machine. */

export interface WebBenchConfig {
  /** Lighthouse runs per page (the median is reported); pages interleave within a round. */
  runs: number;
  /** The first of the stack's ports (web); the others follow (stack.ts). */
  portBase: number;
  /** Where the JSON report goes (relative to the repository root). */
  output: string;
  /** Also keep each run's full Lighthouse report beside the JSON (web-<page>-<run>.json). */
  keepReports: boolean;
}

const HELP = `Usage: npm run bench:web -- [options]

  --runs N          Lighthouse runs per page, median reported (default 3, minimum 1)
  --port-base N     first port of the stack: web N, auth N+40, engine N+80, actions N+100,
                    bot N+200, database N+320, floor page N+400 (default ${DEFAULT_PORT_BASE};
                    keep them below 32768)
  --output FILE     JSON report (default bench-results/web.json)
  --keep-reports    also write every run's Lighthouse JSON beside it
`;

/** An integer option of at least `min`, or `fallback` when absent. */
export function integer(
  value: string | undefined,
  fallback: number,
  name: string,
  min: number,
): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new Error(`--${name} must be an integer >= ${min}`);
  return parsed;
}

export function parseWebConfig(argv: string[]): WebBenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string' },
      'port-base': { type: 'string' },
      output: { type: 'string' },
      'keep-reports': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const portBase = integer(values['port-base'], DEFAULT_PORT_BASE, 'port-base', 1024);
  if (portBase + 400 >= 32768) throw new Error('--port-base: the ports must stay below 32768');
  return {
    runs: integer(values.runs, 3, 'runs', 1),
    portBase,
    output: values.output ?? 'bench-results/web.json',
    keepReports: values['keep-reports'] ?? false,
  };
}
