import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

import {
  ACTIONS_PORT,
  CASE_TIMEOUT_MS,
  EVENTS_PORT,
  LIVE_QUERY_REFETCH_MS,
  PASS_RATE_BAR,
  defaultCorpusDir,
  groups as groupConfigs,
  reportPath,
  webhookEnvironment,
  type GroupConfig,
} from './config.ts';
import {
  caseFileName,
  listGroupsOnDisk,
  loadGroup,
  setupInsertsRows,
  trackedTables,
  type LoadedCase,
  type LoadedGroup,
} from './corpus.ts';
import { chooseDatabaseProvider, type DatabaseProvider, type GroupDatabase } from './database.ts';
import { caseTimeoutMs, runCaseBody, type CaseContext, type CaseOutcome } from './drivers.ts';
import { ENGINE_MODULE, EngineHost, loadEngine, type CreateEngine } from './engine.ts';
import { postJson } from './http.ts';
import { generateJwtKeys, type JwtKeys } from './jwt.ts';
import { ActionHandler, EventReceiver } from './receivers.ts';
import {
  caseLine,
  countCases,
  driftLines,
  groupLine,
  write,
  writeReport,
  type CaseResult,
  type GroupResult,
  type RunReport,
} from './report.ts';
import { caseServer, type RunSecrets } from './server-settings.ts';
import { requestHeaders, type PlaceholderValues } from './transform.ts';
import { WS_PROTOCOLS, type WsProtocol } from './ws-client.ts';

/*
 * The Hasura conformance runner: `npm run test:conformance [-- --group NAME] [-- --case FILE]`.
 * See tests/conformance/README.md for what it does and the options.
 */

const HELP = `Usage: npm run test:conformance -- [options]

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

interface Options {
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

class UsageError extends Error {}

function parseOptions(argv: string[]): Options | null {
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

// ---------------------------------------------------------------------------------------------
// Cleanup that runs however the run ends (including Ctrl-C).

const cleanups = new Set<() => Promise<void>>();

async function runCleanups(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    await cleanup().catch(() => {});
  }
}

const uncaughtErrors: string[] = [];
/** What was running, for errors that escape it: `group/case`, or `group (phase)`. */
let currentCase: string | undefined;

function installProcessHandlers(): void {
  const stop = (signal: NodeJS.Signals) => {
    write(`\n${signal}: tearing down engines, receivers and databases...`);
    void runCleanups().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // An engine bug that throws outside a request must not take the runner (and the cleanup)
  // down: it is recorded against the case that was running.
  const record = (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    uncaughtErrors.push(
      `${currentCase ?? '(between cases)'}: ${message.split('\n').slice(0, 3).join(' | ')}`,
    );
  };
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
}

// ---------------------------------------------------------------------------------------------
// Selection and validation.

interface Selection {
  groups: { loaded: LoadedGroup; config: GroupConfig; cases: LoadedCase[] }[];
}

async function select(options: Options): Promise<Selection> {
  if (!existsSync(options.corpusDir)) {
    throw new UsageError(
      `corpus not found at ${options.corpusDir} (set --corpus or HASURA_CONFORMANCE_DIR)`,
    );
  }
  const onDisk = listGroupsOnDisk(options.corpusDir);
  const configured = Object.keys(groupConfigs);
  const unlisted = onDisk.filter((name) => !configured.includes(name));
  const missing = configured.filter((name) => !onDisk.includes(name));
  if (unlisted.length || missing.length) {
    throw new UsageError(
      `tests/conformance/config.ts must list exactly the corpus groups: ${
        unlisted.length ? `not listed: ${unlisted.join(', ')}` : ''
      }${missing.length ? ` not in the corpus: ${missing.join(', ')}` : ''}`,
    );
  }
  for (const name of options.groups) {
    if (!configured.includes(name))
      throw new UsageError(`no group ${name} (groups: ${configured.join(', ')})`);
  }
  const names = options.groups.length
    ? configured.filter((name) => options.groups.includes(name))
    : configured;
  const selection: Selection = { groups: [] };
  for (const name of names) {
    const loaded = await loadGroup(options.corpusDir, name);
    const config = groupConfigs[name] ?? {};
    const files = new Set(loaded.cases.map((testCase) => testCase.file));
    for (const file of [
      ...Object.keys(config.skipCases ?? {}),
      ...Object.keys(config.caseServer ?? {}),
      ...Object.keys(config.skipRequests ?? {}),
    ]) {
      if (!files.has(file))
        throw new UsageError(`config.ts names ${name}/${file}, which group.yaml does not list`);
    }
    for (const [file, requests] of Object.entries(config.skipRequests ?? {})) {
      const body = loaded.cases.find((testCase) => testCase.file === file)?.body;
      const count = body?.kind === 'requests' ? body.requests.length : 0;
      for (const number of Object.keys(requests).map(Number)) {
        if (!(number >= 1 && number <= count)) {
          throw new UsageError(`config.ts skipRequests: ${name}/${file} has no request #${number}`);
        }
      }
    }
    const cases = options.cases.length
      ? loaded.cases.filter((testCase) => options.cases.includes(testCase.file))
      : loaded.cases;
    if (cases.length) selection.groups.push({ loaded, config, cases });
  }
  if (selection.groups.length === 0)
    throw new UsageError('no case matches the --group/--case selection');
  return selection;
}

function skipReason(
  config: GroupConfig,
  testCase: LoadedCase,
  provider?: DatabaseProvider,
): string | undefined {
  if (config.skip) return `group skipped: ${config.skip}`;
  if (provider?.kind === 'pglite' && config.pgliteUnsupported) {
    return `cannot run on PGlite: ${config.pgliteUnsupported}`;
  }
  return config.skipCases?.[testCase.file];
}

function blankResult(
  testCase: LoadedCase,
  status: CaseResult['status'],
  reason?: string,
): CaseResult {
  return {
    group: testCase.group,
    file: testCase.file,
    status,
    ...(reason === undefined ? {} : { reason }),
    failures: [],
    drift: [],
    notes: [],
    durationMs: 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Isolation.

/** per_case: reset.sql then seed.sql, or (no such files) truncation of the tracked tables. */
async function isolate(
  group: LoadedGroup,
  db: GroupDatabase,
  events: EventReceiver,
): Promise<void> {
  if (group.meta.isolation !== 'per_case') return;
  if (group.resetSql || group.seedSql) {
    if (group.resetSql) await db.exec(group.resetSql);
    if (group.seedSql) await db.exec(group.seedSql);
  } else {
    if (setupInsertsRows(group.setupSql)) {
      throw new Error(
        'per_case group without reset.sql/seed.sql whose setup.sql inserts rows: cannot isolate',
      );
    }
    const tables = trackedTables(group.metadata);
    if (tables.length) await db.exec(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
  }
  events.clear();
}

// ---------------------------------------------------------------------------------------------
// Running.

interface RunState {
  options: Options;
  secrets: RunSecrets;
  jwtKeys: JwtKeys;
  wrongSecret: string;
  events: EventReceiver;
  actions: ActionHandler;
  createEngine: CreateEngine;
  provider: DatabaseProvider;
}

async function runOneCase(
  state: RunState,
  group: LoadedGroup,
  config: GroupConfig,
  testCase: LoadedCase,
  db: GroupDatabase,
  host: EngineHost,
): Promise<CaseResult> {
  const started = Date.now();
  currentCase = `${group.name}/${testCase.file}`;
  const result = blankResult(testCase, 'failed');
  const finish = (outcome: Partial<CaseOutcome>, reason?: string): CaseResult => {
    result.failures = outcome.failures ?? [];
    result.drift = outcome.drift ?? [];
    result.notes = outcome.notes ?? [];
    if (reason) result.reason = reason;
    result.status = result.failures.length === 0 && !reason ? 'passed' : 'failed';
    result.durationMs = Date.now() - started;
    return result;
  };

  let server;
  try {
    server = caseServer(group, testCase, config, state.secrets);
  } catch (error) {
    return finish({}, `configuration: ${(error as Error).message}`);
  }
  let engine;
  try {
    engine = await host.get(server.settings);
  } catch (error) {
    return finish({}, (error as Error).message);
  }
  state.actions.engineUrl = engine.url;
  state.actions.adminSecret = server.settings.adminSecret;

  const placeholders: PlaceholderValues = {
    adminSecret: server.settings.adminSecret,
    wrongSecret: state.wrongSecret,
  };
  const controller = new AbortController();
  const tracked: (() => void)[] = [];
  const context: CaseContext = {
    testCase,
    engine,
    ...(config.skipRequests?.[testCase.file]
      ? { skippedRequests: config.skipRequests[testCase.file] }
      : {}),
    settings: server.settings,
    sendAdminSecret: server.sendAdminSecret,
    placeholders,
    jwtKeys: state.jwtKeys,
    wsProtocols: state.options.wsProtocols,
    events: state.events,
    signal: controller.signal,
    track: (cleanup) => tracked.push(cleanup),
    prepare: async () => {
      // A timed-out driver still unwinding must not touch the database of the next case.
      if (controller.signal.aborted) throw new Error('the case has ended');
      await isolate(group, db, state.events);
      for (const [index, pre] of (testCase.entry.pre_requests ?? []).entries()) {
        const headers = requestHeaders(pre.headers, {
          sendAdminSecret: true,
          values: placeholders,
        });
        const response = await postJson(`${engine.url}${pre.url}`, pre.query, headers, {
          signal: controller.signal,
        });
        if (pre.expect_status !== undefined && response.status !== pre.expect_status) {
          throw new Error(
            `pre_request ${index + 1}: expected status ${pre.expect_status}, got ${response.status} (${response.text.slice(0, 160)})`,
          );
        }
      }
    },
  };
  const timeoutMs = caseTimeoutMs(
    testCase,
    state.options.wsProtocols.length,
    state.options.timeoutMs,
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      runCaseBody(context),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
      }),
    ]);
    return finish(outcome);
  } catch (error) {
    return finish({}, (error as Error).message);
  } finally {
    clearTimeout(timer);
    controller.abort();
    for (const cleanup of tracked) {
      try {
        cleanup();
      } catch {
        // already closed
      }
    }
    currentCase = `${group.name} (between cases)`;
  }
}

async function runGroup(state: RunState, entry: Selection['groups'][number]): Promise<GroupResult> {
  const { loaded: group, config, cases } = entry;
  const started = Date.now();
  const result: GroupResult = {
    name: group.name,
    database: state.provider.kind,
    durationMs: 0,
    cases: [],
  };
  const runnable = cases.filter((testCase) => {
    const reason = skipReason(config, testCase, state.provider);
    if (reason) result.cases.push(blankResult(testCase, 'skipped', reason));
    return !reason;
  });
  const failAll = (reason: string) => {
    result.error = reason;
    for (const testCase of runnable) result.cases.push(blankResult(testCase, 'failed', reason));
  };
  if (runnable.length === 0) {
    result.durationMs = Date.now() - started;
    return result;
  }

  let db: GroupDatabase;
  try {
    db = await state.provider.create(group.name);
  } catch (error) {
    failAll(`database: ${(error as Error).message}`);
    result.durationMs = Date.now() - started;
    return result;
  }
  const host = new EngineHost({
    createEngine: state.createEngine,
    databaseUrl: db.url,
    metadata: group.metadata,
    liveQueryRefetchIntervalMs: LIVE_QUERY_REFETCH_MS,
    logLevel: state.options.engineLogs,
  });
  const teardown = async () => {
    currentCase = `${group.name} (teardown: engine.close, then the database is dropped)`;
    await host.close();
    await db.dispose();
    // Errors a moment later (a connection the engine left open being terminated) still count.
    await new Promise((resolve) => setTimeout(resolve, 50));
    currentCase = undefined;
  };
  cleanups.add(teardown);
  try {
    try {
      await db.exec(group.setupSql);
    } catch (error) {
      failAll(`setup.sql failed: ${(error as Error).message}`);
      return result;
    }
    for (const testCase of runnable) {
      const caseResult = await runOneCase(state, group, config, testCase, db, host);
      result.cases.push(caseResult);
      if (caseResult.status === 'failed') write(caseLine(caseResult));
      if (state.options.drift) for (const line of driftLines(caseResult)) write(line);
    }
  } finally {
    cleanups.delete(teardown);
    await teardown().catch(() => {});
    result.durationMs = Date.now() - started;
    // Keep the corpus order in the report even when skipped cases were listed first.
    const order = new Map(cases.map((testCase, index) => [testCase.file, index]));
    result.cases.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
  }
  return result;
}

async function prepareOnly(options: Options, selection: Selection): Promise<number> {
  const provider = await chooseDatabaseProvider(options.db);
  write(`prepare-only on ${provider.description}`);
  const events = new EventReceiver();
  let failed = 0;
  for (const { loaded: group } of selection.groups) {
    const started = Date.now();
    let db: GroupDatabase | undefined;
    try {
      db = await provider.create(group.name);
      await db.exec(group.setupSql);
      await isolate(group, db, events);
      await isolate(group, db, events);
      const unknown = group.cases.filter((testCase) => testCase.body.kind === 'unknown');
      if (unknown.length)
        throw new Error(`unrecognised case files: ${unknown.map((c) => c.file).join(', ')}`);
      const kinds = new Map<string, number>();
      for (const testCase of group.cases)
        kinds.set(testCase.body.kind, (kinds.get(testCase.body.kind) ?? 0) + 1);
      write(
        `  ${group.name.padEnd(28)} ok (${group.meta.isolation}; ${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ')}; ${Date.now() - started} ms)`,
      );
    } catch (error) {
      failed++;
      write(`  ${group.name.padEnd(28)} FAILED: ${(error as Error).message}`);
    } finally {
      await db?.dispose().catch(() => {});
    }
  }
  write(`prepared ${selection.groups.length - failed} of ${selection.groups.length} groups`);
  return failed ? 1 : 0;
}

async function startReceivers(
  events: EventReceiver,
  actions: ActionHandler,
): Promise<{ environment: Record<string, string>; notes: string[] }> {
  const notes: string[] = [];
  const start = async (receiver: EventReceiver | ActionHandler, port: number, name: string) => {
    try {
      return await receiver.start(port);
    } catch (error) {
      const moved = await receiver.start(0);
      notes.push(`${name}: port ${port} unavailable (${(error as Error).message}); using ${moved}`);
      return moved;
    }
  };
  const eventsPort = await start(events, EVENTS_PORT, 'event receiver');
  const actionsPort = await start(actions, ACTIONS_PORT, 'action handler');
  return {
    environment: {
      ...webhookEnvironment,
      EVENT_WEBHOOK_HANDLER: `http://localhost:${eventsPort}`,
      ACTION_WEBHOOK_HANDLER: `http://localhost:${actionsPort}`,
    },
    notes,
  };
}

function finishRun(options: Options, report: RunReport, results: GroupResult[]): number {
  write('');
  for (const group of results) write(groupLine(group));
  const all = results.flatMap((group) => group.cases);
  const totals = countCases(all);
  report.totals = totals;
  report.meetsBar =
    totals.passRate !== null ? totals.passRate >= PASS_RATE_BAR : totals.failed === 0;
  if (uncaughtErrors.length) write(`${uncaughtErrors.length} uncaught errors (see the report)`);
  if (totals.drift)
    write(`${totals.drift} passing or failing cases with message drift (--drift prints them)`);
  const rate = totals.passRate === null ? 'n/a' : `${(totals.passRate * 100).toFixed(1)}%`;
  write(`pass rate ${rate} (bar ${PASS_RATE_BAR * 100}%); report: ${options.reportFile}`);
  const partial = results
    .flatMap((group) => group.cases)
    .filter(
      (result) =>
        result.status !== 'skipped' && result.notes.some((note) => note.includes(' not sent: ')),
    );
  if (partial.length) {
    write(
      `${partial.length} case${partial.length === 1 ? '' : 's'} ran with some requests not sent (config.ts skipRequests; see their notes)`,
    );
  }
  write(`${totals.skipped} skipped`);
  write(`${totals.passed} passed, ${totals.failed} failed`);
  return report.meetsBar ? 0 : 1;
}

async function main(): Promise<number> {
  let options: Options | null;
  let selection: Selection;
  try {
    options = parseOptions(process.argv.slice(2));
    if (!options) {
      write(HELP);
      return 0;
    }
    selection = await select(options);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`test:conformance: ${(error as Error).message}\n\n${HELP}`);
      return 2;
    }
    throw error;
  }
  installProcessHandlers();
  if (options.prepareOnly) return prepareOnly(options, selection);

  const report: RunReport = {
    generatedAt: new Date().toISOString(),
    corpusDir: options.corpusDir,
    database: 'none',
    engine: { available: false },
    options: {
      groups: options.groups,
      cases: options.cases,
      db: options.db,
      wsProtocols: options.wsProtocols,
      withoutAdminSecret: options.withoutAdminSecret,
      timeoutMs: options.timeoutMs,
    },
    totals: { passed: 0, failed: 0, skipped: 0, drift: 0, passRate: null },
    bar: PASS_RATE_BAR,
    meetsBar: false,
    groups: [],
    uncaughtErrors,
  };

  const engine = await loadEngine(options.engineModule);
  if (!engine.ok) {
    write(`engine not available: ${engine.reason}`);
    report.engine = { available: false, reason: engine.reason };
    for (const { loaded, config, cases } of selection.groups) {
      const group: GroupResult = {
        name: loaded.name,
        error: 'engine not available',
        durationMs: 0,
        cases: [],
      };
      for (const testCase of cases) {
        const reason = skipReason(config, testCase);
        group.cases.push(
          blankResult(testCase, reason ? 'skipped' : 'failed', reason ?? 'engine not available'),
        );
      }
      report.groups.push(group);
    }
    const code = finishRun(options, report, report.groups);
    await writeReport(options.reportFile, report);
    return code;
  }
  report.engine = { available: true };

  const provider = await chooseDatabaseProvider(options.db);
  report.database = provider.description;
  write(
    `conformance: ${selection.groups.length} groups on ${provider.description}; websocket: ${options.wsProtocols.join(' + ')}`,
  );

  const events = new EventReceiver();
  const actions = new ActionHandler();
  const stopReceivers = async () => {
    await events.stop();
    await actions.stop();
  };
  cleanups.add(stopReceivers);
  try {
    const receivers = await startReceivers(events, actions);
    for (const note of receivers.notes) write(note);
    const jwtKeys = generateJwtKeys();
    const state: RunState = {
      options,
      jwtKeys,
      wrongSecret: `wrong-${randomBytes(12).toString('hex')}`,
      secrets: {
        adminSecret: `conformance-${randomBytes(16).toString('hex')}`,
        jwtKeys,
        withoutAdminSecret: options.withoutAdminSecret,
        baseEnvironment: receivers.environment,
      },
      events,
      actions,
      createEngine: engine.createEngine,
      provider,
    };
    for (const entry of selection.groups) {
      report.groups.push(await runGroup(state, entry));
    }
  } finally {
    cleanups.delete(stopReceivers);
    await stopReceivers().catch(() => {});
  }
  const code = finishRun(options, report, report.groups);
  await writeReport(options.reportFile, report);
  return code;
}

main().then(
  async (code) => {
    await runCleanups();
    process.exit(code);
  },
  async (error: unknown) => {
    process.stderr.write(
      `test:conformance crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    await runCleanups();
    process.exit(2);
  },
);
