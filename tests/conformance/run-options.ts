import { parseArgs } from 'node:util';

import { CASE_TIMEOUT_MS, defaultCorpusDir, reportPath } from './config.ts';
import { caseFileName } from './corpus.ts';
import { ENGINE_MODULE } from './engine.ts';
import { WS_PROTOCOLS, type WsProtocol } from './ws-client.ts';

/*
 * The conformance runner's command line: its help text and the options parsed from it.
 */

export const HELP = `Usage: npm run test:conformance -- [options]

  --group NAME          run only this group (repeatable)
  --case FILE           run only this case file (x, x.yaml or cases/x.yaml; repeatable)
  --db auto|postgres|pglite
                        database (default auto: TEST_POSTGRES_URL when reachable, else PGlite)
  --ws-protocol both|graphql-ws|graphql-transport-ws
                        websocket protocol(s) for websocket/subscription transports (default both)
  --without-admin-secret
                        run the "admin_secret: either" groups with no secret configured
  --timeout-ms N        base per-case timeout (default ${CASE_TIMEOUT_MS})
  --engine-logs LEVEL   the engine's pino log level (default silent)
  --drift               print each message-drift line
  --prepare-only        only prepare every group's database (setup, reset, seed); no engine
  --engine MODULE       module exporting createEngine (default @app/engine)
  --corpus DIR          corpus folder (default ../shared/conformance/hasura)
  --report FILE         JSON report path (default bench-results/conformance.json)
`;

export interface Options {
  groups: string[];
  cases: string[];
  db: 'auto' | 'postgres' | 'pglite';
  wsProtocols: WsProtocol[];
  withoutAdminSecret: boolean;
  timeoutMs: number;
  engineLogs: string;
  drift: boolean;
  prepareOnly: boolean;
  corpusDir: string;
  reportFile: string;
  engineModule: string;
}

export class UsageError extends Error {}

export function parseOptions(argv: string[]): Options | null {
  // `npm run x -- --group a -- --case b` leaves bare `--` tokens: they separate nothing here.
  const args = argv.filter((arg) => arg !== '--');
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      group: { type: 'string', multiple: true },
      case: { type: 'string', multiple: true },
      db: { type: 'string' },
      'ws-protocol': { type: 'string' },
      'without-admin-secret': { type: 'boolean' },
      'timeout-ms': { type: 'string' },
      'engine-logs': { type: 'string' },
      drift: { type: 'boolean' },
      'prepare-only': { type: 'boolean' },
      corpus: { type: 'string' },
      report: { type: 'string' },
      engine: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const db = values.db ?? 'auto';
  if (db !== 'auto' && db !== 'postgres' && db !== 'pglite') throw new UsageError(`--db ${db}?`);
  const protocol = values['ws-protocol'] ?? 'both';
  const wsProtocols: WsProtocol[] =
    protocol === 'both'
      ? WS_PROTOCOLS
      : protocol === 'graphql-ws' || protocol === 'graphql-transport-ws'
        ? [protocol]
        : [];
  if (wsProtocols.length === 0) throw new UsageError(`--ws-protocol ${protocol}?`);
  const timeoutMs = Number(values['timeout-ms'] ?? CASE_TIMEOUT_MS);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError('--timeout-ms needs a positive number');
  return {
    groups: values.group ?? [],
    cases: (values.case ?? []).map(caseFileName),
    db,
    wsProtocols,
    withoutAdminSecret: values['without-admin-secret'] ?? false,
    timeoutMs,
    engineLogs: values['engine-logs'] ?? 'silent',
    drift: values.drift ?? false,
    prepareOnly: values['prepare-only'] ?? false,
    corpusDir: values.corpus ?? process.env['HASURA_CONFORMANCE_DIR'] ?? defaultCorpusDir,
    reportFile: values.report ?? reportPath,
    engineModule: values.engine ?? ENGINE_MODULE,
  };
}
