import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';

import * as z from 'zod';

import { servicePort, type ServiceDefinition } from './services.ts';

const COLOURS = [36, 35, 33, 32, 34, 91];
const label = (name: string, index: number) =>
  process.stdout.isTTY
    ? `\u001b[${COLOURS[index % COLOURS.length]}m[${name}]\u001b[0m`
    : `[${name}]`;

/** How many of a service's last output lines a start-up failure quotes. */
export const TAIL_LINES = 20;

/** A service that keeps printing is waited for at most this many times the quiet limit. */
export const MAX_WAIT_FACTOR = 10;

/**
 * How long the launcher waits for a service to become healthy. The limit is on silence, not on
 * the whole start: a busy machine makes start-ups slow, and a service still printing is alive.
 */
export const SupervisorEnv = z.object({
  /** Seconds a starting service may go without printing before the launcher gives up on it. */
  LAUNCHER_START_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
});
export type SupervisorEnv = z.infer<typeof SupervisorEnv>;

export interface RunningService {
  definition: ServiceDefinition;
  port: number;
  child: ChildProcess;
  /** The last {@link TAIL_LINES} lines it printed, stdout and stderr together, oldest first. */
  tail: string[];
  /** When it last printed a line (ms since the epoch); its start until then. */
  lastOutputAt: number;
  /** Resolves once it has exited and all its output has been read. */
  closed: Promise<void>;
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
  const service: RunningService = {
    definition,
    port,
    child,
    tail: [],
    lastOutputAt: Date.now(),
    closed: new Promise((resolve) => child.once('close', () => resolve())),
  };
  const prefix = label(definition.name, index);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      service.tail.push(line);
      if (service.tail.length > TAIL_LINES) service.tail.shift();
      service.lastOutputAt = Date.now();
      process.stdout.write(`${prefix} ${line}\n`);
    });
  }
  return service;
}

/** The service's last output lines, indented under a heading, for an error message. */
export function describeTail(service: RunningService): string {
  if (service.tail.length === 0) return 'It printed nothing.';
  const lines = service.tail.map((line) => `  | ${line}`).join('\n');
  return `Its last ${service.tail.length === 1 ? 'line' : `${service.tail.length} lines`}:\n${lines}`;
}

/** How the service ended: its exit code, or the signal that stopped it. */
export function describeExit(child: ChildProcess): string {
  return child.signalCode === null ? `code ${child.exitCode}` : `signal ${child.signalCode}`;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Waits until the service answers its health check. Fails when it exits, when it has printed
 * nothing for `quietMs` without becoming healthy, or after `maxMs` in all; the error names
 * the service, the URL polled, how long it waited and the service's last output lines.
 */
export async function waitHealthy(
  service: RunningService,
  quietMs = 60_000,
  maxMs = quietMs * MAX_WAIT_FACTOR,
): Promise<void> {
  const { name } = service.definition;
  const url = `http://127.0.0.1:${service.port}${service.definition.healthPath}`;
  const started = Date.now();
  for (;;) {
    const { child } = service;
    if (child.exitCode !== null || child.signalCode !== null) {
      // Its last lines may still be in the pipe; they are what explains the exit.
      await Promise.race([service.closed, delay(2_000)]);
      throw new Error(
        `${name} exited with ${describeExit(child)} while starting. ${describeTail(service)}`,
      );
    }
    const healthy = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) return;
    const now = Date.now();
    const quietFor = now - service.lastOutputAt;
    if (quietFor >= quietMs || now - started >= maxMs) {
      const why =
        quietFor >= quietMs
          ? `nothing printed for ${seconds(quietFor)}; LAUNCHER_START_TIMEOUT_SECONDS=${quietMs / 1000}`
          : `still printing, but a start may take at most ${seconds(maxMs)} in all`;
      throw new Error(
        `${name} did not answer ${url} after waiting ${seconds(now - started)} (${why}). ${describeTail(service)}`,
      );
    }
    await delay(250);
  }
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
