import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it, vi } from 'vitest';

import type { ServiceDefinition } from '../../scripts/launcher/services.ts';
import {
  startService,
  stopServices,
  waitHealthy,
  type RunningService,
} from '../../scripts/launcher/supervisor.ts';
import { freePort } from '../support/processes.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function fixture(
  env: Record<string, string> = {},
): Promise<{ service: RunningService; lines: string[] }> {
  const definition: ServiceDefinition = {
    name: 'fixture',
    workspace: 'tests/fixtures',
    entry: 'health-service.ts',
    port: await freePort(),
    portVariable: 'FIXTURE_PORT',
    healthPath: '/healthz',
    urls: (port) => [`http://localhost:${port}`],
  };
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return { service: startService(root, definition, 0, { ...process.env, ...env }), lines };
}

describe('the launcher supervisor', () => {
  const started: RunningService[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await stopServices(started.splice(0), 500);
  });

  it('waits for the health check and labels every output line with the service name', async () => {
    const { service, lines } = await fixture({ FIXTURE_READY_AFTER_MS: '600' });
    started.push(service);
    await waitHealthy(service, 10_000);
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines).toContain(`[fixture] listening on ${service.port}\n`);
    expect(lines).toContain('[fixture] a warning on stderr\n');
  });

  it('fails fast when a service exits while starting', async () => {
    const { service } = await fixture({ FIXTURE_CRASH: '1' });
    started.push(service);
    await expect(waitHealthy(service, 10_000)).rejects.toThrow(
      'fixture exited with code 3 while starting',
    );
  });

  it('kills a service that ignores SIGTERM after the grace period', async () => {
    const { service } = await fixture({ FIXTURE_IGNORE_SIGTERM: '1' });
    await waitHealthy(service, 10_000);
    await stopServices([service], 300);
    await vi.waitFor(() => expect(service.child.signalCode).toBe('SIGKILL'));
  });
});
