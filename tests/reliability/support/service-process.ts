import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { SERVICES } from '../../../scripts/launcher/services.ts';
import { spawnTs, type Spawned } from '../../support/processes.ts';

import { answersHealthy } from './health.ts';
import { baseEnvironment } from './service-environment.ts';

/*
 * A service of the product as a child process, started as the launcher (scripts/start.ts)
 * starts it: `node --import tsx <entry>` in its workspace, with its port in its port variable.
 * The child is the service's own node process (tsx runs inside it, there is no wrapper), which
 * is checked: a signal sent to it (`kill -9` of the engine) or a memory sample of it must reach
 * the service, not a wrapper around it.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** How long a service may take to answer its health check after it is spawned. */
const START_TIMEOUT_MS = 90_000;

/** Whether the process has ended (by itself or by a signal). */
export function hasExited(spawned: Spawned): boolean {
  return spawned.child.exitCode !== null || spawned.child.signalCode !== null;
}

/**
 * Spawns one of the checks' helper processes (`entry`, a TypeScript file) with the base
 * environment and waits for its `<name> ready <url>` line; returns it with that URL. A helper
 * that never says so is killed.
 */
export async function spawnUntilReady(
  entry: URL,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<{ spawned: Spawned; url: string }> {
  const spawned = spawnTs(fileURLToPath(entry), [], { cwd: REPO_ROOT, env: baseEnvironment() });
  try {
    await spawned.waitFor(ready, timeoutMs);
  } catch (error) {
    spawned.child.kill('SIGKILL');
    throw error;
  }
  return { spawned, url: ready.exec(spawned.output())![1]! };
}

/** Sends `signal` and waits for the process to end, with SIGKILL after `killAfterMs`. */
export async function stopProcess(
  spawned: Spawned,
  signal: NodeJS.Signals,
  killAfterMs: number,
): Promise<void> {
  if (hasExited(spawned)) return;
  spawned.child.kill(signal);
  const timer = setTimeout(() => spawned.child.kill('SIGKILL'), killAfterMs);
  await spawned.exited;
  clearTimeout(timer);
}

/**
 * Spawns the service `name` (as scripts/launcher/services.ts defines it) on `port` with `env`
 * and resolves once its health check answers. `onSpawn` sees the process before that, so that
 * a caller can track (and stop) a service that is still starting. A service that does not come
 * up is killed, and the error carries the end of its output.
 */
export async function launchService(
  name: string,
  port: number,
  env: NodeJS.ProcessEnv,
  onSpawn?: (spawned: Spawned) => void,
): Promise<Spawned> {
  const definition = SERVICES.find((service) => service.name === name);
  if (!definition) throw new Error(`no service named ${name} in scripts/launcher/services.ts`);
  const spawned = spawnTs(definition.entry, [], {
    cwd: path.join(REPO_ROOT, definition.workspace),
    env: { ...env, [definition.portVariable]: String(port) },
  });
  onSpawn?.(spawned);
  try {
    await waitHealthy(name, `http://127.0.0.1:${port}${definition.healthPath}`, spawned);
    await assertServiceProcess(spawned.child.pid!, definition.entry);
  } catch (error) {
    await stopProcess(spawned, 'SIGKILL', 5_000);
    throw error;
  }
  return spawned;
}

async function waitHealthy(name: string, url: string, spawned: Spawned): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(spawned)) {
      throw new Error(`${name} exited while starting:\n${spawned.output().slice(-4000)}`);
    }
    if (await answersHealthy(url, 2_000)) return;
    await delay(100);
  }
  throw new Error(
    `${name} did not answer ${url} within ${START_TIMEOUT_MS / 1000} s:\n${spawned.output().slice(-4000)}`,
  );
}

/** Checks that `pid` is a node process running `entry` (see the header). */
async function assertServiceProcess(pid: number, entry: string): Promise<void> {
  if (process.platform !== 'linux') return;
  const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  if (argv[0] !== process.execPath || !argv.includes(entry)) {
    throw new Error(`process ${pid} is not the service's node process: ${argv.join(' ')}`);
  }
}
