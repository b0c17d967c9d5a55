import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig, devices } from '@playwright/test';

import { stackEnvironment, WEB_URL } from './stack.ts';

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
  webServer: {
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
});
