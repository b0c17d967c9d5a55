import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';

import { servicePort, type ServiceDefinition } from './services.ts';

const COLOURS = [36, 35, 33, 32, 34, 91];
const label = (name: string, index: number) =>
  process.stdout.isTTY
    ? `\u001b[${COLOURS[index % COLOURS.length]}m[${name}]\u001b[0m`
    : `[${name}]`;

export interface RunningService {
  definition: ServiceDefinition;
  port: number;
  child: ChildProcess;
}

/** Starts one service as a child process with its output prefixed by its name. */
export function startService(
  root: string,
  definition: ServiceDefinition,
  index: number,
  env: NodeJS.ProcessEnv,
): RunningService {
  const port = servicePort(definition, env);
  const child = spawn(process.execPath, ['--import', 'tsx', definition.entry], {
    cwd: path.join(root, definition.workspace),
    env: { ...env, [definition.portVariable]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = label(definition.name, index);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) =>
      process.stdout.write(`${prefix} ${line}\n`),
    );
  }
  return { definition, port, child };
}

/** Waits until the service answers its health check, or fails if it exits or times out. */
export async function waitHealthy(service: RunningService, timeoutMs = 60_000): Promise<void> {
  const url = `http://127.0.0.1:${service.port}${service.definition.healthPath}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) {
      throw new Error(
        `${service.definition.name} exited with code ${service.child.exitCode} while starting`,
      );
    }
    const healthy = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) return;
    await delay(250);
  }
  throw new Error(`${service.definition.name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** Asks each service to stop, and kills those still running after the grace period. */
export async function stopServices(services: RunningService[], graceMs = 5_000): Promise<void> {
  await Promise.all(
    services.map(async ({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const outcome = await Promise.race([exited.then(() => 'exited'), delay(graceMs, 'timeout')]);
      if (outcome === 'timeout') child.kill('SIGKILL');
    }),
  );
}
