import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig, devices } from '@playwright/test';

import { E2E_PORTS, stackEnvironment, WEB_URL } from './stack.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-pglite-'));
// A build of its own per port offset, so a developer's build (or another run's) is never served
// half-written. Inside web/ so Node reads it as the package's ES modules.
const offset = process.env['E2E_PORT_OFFSET'] ?? '0';
const buildDir = path.join(root, 'web', `.e2e-build-${offset}`);
const miniappBuildDir = path.join(root, 'miniapp', `.e2e-build-${offset}`);

/** Debian's Chromium (apt-get install chromium); Playwright's own download is not reachable. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  // A second run on another port offset keeps its artifacts apart (Playwright empties the dir).
  outputDir: path.join(root, 'test-results', offset === '0' ? 'e2e' : `e2e-${offset}`),
  forbidOnly: Boolean(process.env['CI']),
  retries: process.env['CI'] ? 1 : 0,
  // One worker: the tests share one stack and its test mailbox.
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: path.join(root, 'playwright-report'), open: 'never' }],
  ],
  use: {
    baseURL: WEB_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      // A local EVM chain the stack's chain watcher follows (issue 25): the watcher tests mine it.
      command: 'npx tsx tests/fixtures/local-evm-node.ts',
      cwd: root,
      port: E2E_PORTS.evm,
      env: { LOCAL_EVM_PORT: String(E2E_PORTS.evm) },
      timeout: 60_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGINT', timeout: 5_000 },
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      // The README's command with only the port variables (stack.ts), as a person would start it:
      // it builds the portal and the mini-app for production (into this run's own folders) and
      // serves those builds; the services run as in development.
      command: 'npm start -- --fresh',
      cwd: root,
      url: `${WEB_URL}/healthz`,
      env: {
        ...stackEnvironment(dataDir),
        WEB_BUILD_DIR: buildDir,
        MINIAPP_BUILD_DIR: miniappBuildDir,
      },
      // The first start builds the portal and the mini-app (some 15-60 s) before the services.
      timeout: 400_000,
      reuseExistingServer: false,
      // Ctrl-C, as a person stops `npm start`: the launcher stops every service and the database.
      gracefulShutdown: { signal: 'SIGINT', timeout: 15_000 },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
