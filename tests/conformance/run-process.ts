import { write } from './report.ts';

/*
 * The runner's process-wide state: cleanups that run however the run ends, errors that escape
 * a case, and what was running when they did.
 */

// ---------------------------------------------------------------------------------------------
// Cleanup that runs however the run ends (including Ctrl-C).

export const cleanups = new Set<() => Promise<void>>();

export async function runCleanups(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    await cleanup().catch(() => {});
  }
}

export const uncaughtErrors: string[] = [];
/** What was running, for errors that escape it: `group/case`, or `group (phase)`. */
export const running: { name: string | undefined } = { name: undefined };

export function installProcessHandlers(): void {
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
      `${running.name ?? '(between cases)'}: ${message.split('\n').slice(0, 3).join(' | ')}`,
    );
  };
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
}
