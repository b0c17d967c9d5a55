import { LIVE_QUERY_REFETCH_MS, type GroupConfig } from './config.ts';
import { setupInsertsRows, trackedTables, type LoadedCase, type LoadedGroup } from './corpus.ts';
import type { DatabaseProvider, GroupDatabase } from './database.ts';
import { caseTimeoutMs, runCaseBody, type CaseContext, type CaseOutcome } from './drivers.ts';
import { EngineHost, type CreateEngine } from './engine.ts';
import { postJson } from './http.ts';
import type { JwtKeys } from './jwt.ts';
import { type ActionHandler, type EventReceiver } from './receivers.ts';
import { caseLine, driftLines, write, type CaseResult, type GroupResult } from './report.ts';
import { caseServer, type RunSecrets } from './server-settings.ts';
import { requestHeaders, type PlaceholderValues } from './transform.ts';
import type { Options } from './run-options.ts';
import { cleanups, running } from './run-process.ts';
import { blankResult, skipReason, type Selection } from './run-selection.ts';

/*
 * Running one group: its database and engine, each case isolated, driven and timed, then the
 * group torn down.
 */

// ---------------------------------------------------------------------------------------------
// Isolation.

/** per_case: reset.sql then seed.sql, or (no such files) truncation of the tracked tables. */
export async function isolate(
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

export interface RunState {
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
  running.name = `${group.name}/${testCase.file}`;
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
    running.name = `${group.name} (between cases)`;
  }
}

export async function runGroup(
  state: RunState,
  entry: Selection['groups'][number],
): Promise<GroupResult> {
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
    running.name = `${group.name} (teardown: engine.close, then the database is dropped)`;
    await host.close();
    await db.dispose();
    // Errors a moment later (a connection the engine left open being terminated) still count.
    await new Promise((resolve) => setTimeout(resolve, 50));
    running.name = undefined;
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
