import { randomBytes } from 'node:crypto';

import { ACTIONS_PORT, EVENTS_PORT, PASS_RATE_BAR, webhookEnvironment } from './config.ts';
import { chooseDatabaseProvider, type GroupDatabase } from './database.ts';
import { loadEngine } from './engine.ts';
import { generateJwtKeys } from './jwt.ts';
import { ActionHandler, EventReceiver } from './receivers.ts';
import {
  countCases,
  groupLine,
  write,
  writeReport,
  type GroupResult,
  type RunReport,
} from './report.ts';
import { HELP, UsageError, parseOptions, type Options } from './run-options.ts';
import { blankResult, select, skipReason, type Selection } from './run-selection.ts';
import { isolate, runGroup, type RunState } from './run-group.ts';
import { cleanups, installProcessHandlers, runCleanups, uncaughtErrors } from './run-process.ts';

/*
 * The Hasura conformance runner: `npm run test:conformance [-- --group NAME] [-- --case FILE]`.
 * See tests/conformance/README.md for what it does and the options.
 */

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
