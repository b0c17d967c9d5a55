import { integer, parseOptions, type OptionValues } from '../harness.ts';
import { DEFAULT_PORT_BASE } from './stack.ts';

/*
 * Settings of `npm run bench:web`, and the ones bench:miniapp shares with it. The defaults take
 * about five minutes on the 2-core machine.
 */

/** The settings of the Lighthouse benches (bench:web, bench:miniapp). */
export interface LighthouseBenchConfig {
  /** Lighthouse runs per page (the median is reported); pages interleave within a round. */
  runs: number;
  /** The first of the stack's ports (web); the others follow (stack.ts). */
  portBase: number;
  /** Where the JSON report goes (relative to the repository root). */
  output: string;
  /** Also keep each run's full Lighthouse report beside the JSON (<bench>-<page>-<run>.json). */
  keepReports: boolean;
}

/** The options of the Lighthouse benches. */
export const LIGHTHOUSE_OPTIONS = {
  runs: { type: 'string' },
  'port-base': { type: 'string' },
  output: { type: 'string' },
  'keep-reports': { type: 'boolean' },
} as const;

/** The usage line and the options of a Lighthouse bench (`bench:<bench>`), for --help. */
export const lighthouseHelp = (
  bench: string,
  portBase: number,
) => `Usage: npm run bench:${bench} -- [options]

  --runs N          Lighthouse runs per page, median reported (default 3, minimum 1)
  --port-base N     first port of the stack: web N, auth N+40, engine N+80, actions N+100,
                    bot N+200, watchers N+300, database N+320, floor page N+400 (default ${portBase};
                    keep them below 32768)
  --output FILE     JSON report (default bench-results/${bench}.json)
  --keep-reports    also write every run's Lighthouse JSON beside it
`;

/** The settings from the options' values, with `bench`'s defaults. */
export function lighthouseConfig(
  values: OptionValues<typeof LIGHTHOUSE_OPTIONS>,
  bench: string,
  defaultPortBase: number,
): LighthouseBenchConfig {
  const portBase = integer(values['port-base'], defaultPortBase, 'port-base', 1024);
  if (portBase + 400 >= 32768) throw new Error('--port-base: the ports must stay below 32768');
  return {
    runs: integer(values.runs, 3, 'runs', 1),
    portBase,
    output: values.output ?? `bench-results/${bench}.json`,
    keepReports: values['keep-reports'] ?? false,
  };
}

export function parseWebConfig(argv: string[]): LighthouseBenchConfig {
  const values = parseOptions(argv, lighthouseHelp('web', DEFAULT_PORT_BASE), LIGHTHOUSE_OPTIONS);
  return lighthouseConfig(values, 'web', DEFAULT_PORT_BASE);
}
