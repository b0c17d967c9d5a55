import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { parseEnv } from '@app/shared/env';

import type { ServiceDefinition } from '../../../scripts/launcher/services.ts';
import {
  startService,
  stopServices,
  SupervisorEnv,
  waitHealthy,
  type RunningService,
} from '../../../scripts/launcher/supervisor.ts';
import { freePort } from '../../support/processes.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('the launcher waiting for a service to start', () => {
  const started: RunningService[] = [];
  beforeEach(() => {
    // startService echoes every line with its label; keep the test output readable.
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await stopServices(started.splice(0), 500);
  });

  /**
   * Starts the fixture as one of the stack's services (the launcher derives a service's port
   * from its name and variable), on a free port.
   */
  async function start(
    name: 'engine' | 'actions' | 'auth' | 'bot',
    env: Record<string, string>,
  ): Promise<RunningService> {
    const portVariable = {
      engine: 'HASURA_GRAPHQL_SERVER_PORT',
      actions: 'ACTIONS_PORT',
      auth: 'AUTH_PORT',
      bot: 'BOT_PORT',
    }[name];
    const port = await freePort();
    const definition: ServiceDefinition = {
      name,
      workspace: 'tests/integration/launcher/fixtures',
      entry: 'slow-service.ts',
      port,
      portVariable,
      healthPath: '/healthz',
      urls: () => [],
    };
    const service = startService(root, definition, 0, {
      ...process.env,
      ...env,
      [portVariable]: String(port),
      FIXTURE_PORT: String(port),
    });
    expect(service.port).toBe(port);
    started.push(service);
    return service;
  }

  it('gives up on a silent unhealthy service, naming it, the URL, the wait and its last 20 lines', async () => {
    const service = await start('engine', { FIXTURE_LINES: '25' });
    const began = Date.now();
    const failure = await waitHealthy(service, 2_000).then(
      () => expect.fail('a service that never answers was taken as healthy'),
      (error: unknown) => String(error),
    );
    expect(Date.now() - began).toBeGreaterThanOrEqual(2_000);
    expect(failure).toContain(`engine did not answer http://127.0.0.1:${service.port}/healthz`);
    expect(failure).toMatch(/after waiting \d+(\.\d)? s/);
    expect(failure).toContain('LAUNCHER_START_TIMEOUT_SECONDS=2');
    expect(failure).toContain('Its last 20 lines:');
    expect(failure).toContain('| line 06');
    expect(failure).toMatch(/\| line 25$/);
    expect(failure).not.toContain('| line 05');
  });

  it('keeps waiting for a slow service while it keeps printing', async () => {
    // Healthy after 8 s, well past the 3 s quiet limit, with a line every 300 ms until then
    // (the quiet limit leaves room for tsx to start on a busy machine).
    const service = await start('actions', {
      FIXTURE_READY_AFTER_MS: '8000',
      FIXTURE_PRINT_EVERY_MS: '300',
    });
    const began = Date.now();
    await waitHealthy(service, 3_000);
    expect(Date.now() - began).toBeGreaterThanOrEqual(7_500);
  });

  it('still gives up on a service that prints forever, after the overall limit', async () => {
    const service = await start('auth', { FIXTURE_PRINT_EVERY_MS: '100' });
    const began = Date.now();
    await expect(waitHealthy(service, 3_000, 6_000)).rejects.toThrow(
      /auth did not answer .* \(still printing, but a start may take at most 6 s in all\)\. Its last 20 lines:\n.*still migrating/s,
    );
    expect(Date.now() - began).toBeGreaterThanOrEqual(6_000);
  });

  it('reports the exit code and last lines of a service that exits while starting', async () => {
    const service = await start('bot', { FIXTURE_LINES: '2', FIXTURE_EXIT_CODE: '3' });
    const failure = await waitHealthy(service, 10_000).then(
      () => expect.fail('a service that exited was taken as healthy'),
      (error: unknown) => String(error),
    );
    expect(failure).toContain('bot exited with code 3 while starting. Its last 3 lines:\n');
    // stdout and stderr are separate pipes, so their lines may interleave either way.
    expect(failure).toContain('  | line 01\n  | line 02');
    expect(failure).toContain('  | cannot connect to the database');
  });

  it('takes its quiet limit from LAUNCHER_START_TIMEOUT_SECONDS (60 s by default)', () => {
    expect(parseEnv(SupervisorEnv, {}).LAUNCHER_START_TIMEOUT_SECONDS).toBe(60);
    expect(parseEnv(SupervisorEnv, { LAUNCHER_START_TIMEOUT_SECONDS: '180' })).toEqual({
      LAUNCHER_START_TIMEOUT_SECONDS: 180,
    });
    expect(() => parseEnv(SupervisorEnv, { LAUNCHER_START_TIMEOUT_SECONDS: 'soon' })).toThrow(
      'LAUNCHER_START_TIMEOUT_SECONDS',
    );
    expect(() => parseEnv(SupervisorEnv, { LAUNCHER_START_TIMEOUT_SECONDS: '0' })).toThrow(
      'LAUNCHER_START_TIMEOUT_SECONDS',
    );
  });
});
