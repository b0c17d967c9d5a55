import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ensureClientBuilds, sourceFingerprint } from '../../../scripts/launcher/builds.ts';

/*
 * `npm start` serves production builds, rebuilt only when their sources changed (issue 20;
 * scripts/launcher/builds.ts). These run the launcher's build step for real (`npm run build -w
 * <workspace>` in a workspace root) on a small root of their own, whose workspaces' build
 * scripts record each run, so what is built when, and how often, can be counted.
 */

let root: string;

/** A build script that writes the entry file the launcher looks for and logs its run. */
const buildScript = (entry: string, dirVariable: string) => `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const dir = process.env.${dirVariable};
if (process.env.FAIL_BUILD) { console.error('vite: something broke'); process.exit(3); }
await new Promise((resolve) => setTimeout(resolve, 300));
mkdirSync(path.dirname(path.join(dir, '${entry}')), { recursive: true });
writeFileSync(path.join(dir, '${entry}'), 'built');
appendFileSync(path.join(process.cwd(), '..', 'runs.log'), '${dirVariable} ' + process.env.NODE_ENV + '\\n');
console.log('✓ built in 0.3s');
`;

async function write(relative: string, content: string) {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

const runs = async () =>
  (await readFile(path.join(root, 'runs.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'launcher-builds-'));
  await write(
    'package.json',
    JSON.stringify({ name: 'root', private: true, workspaces: ['web', 'miniapp'] }),
  );
  await write(
    'web/package.json',
    JSON.stringify({ name: 'web', type: 'module', scripts: { build: 'node build.mjs' } }),
  );
  await write('web/build.mjs', buildScript('server/index.js', 'WEB_BUILD_DIR'));
  await write(
    'miniapp/package.json',
    JSON.stringify({ name: 'miniapp', type: 'module', scripts: { build: 'node build.mjs' } }),
  );
  await write('miniapp/build.mjs', buildScript('index.html', 'MINIAPP_BUILD_DIR'));
  await write('web/app/root.tsx', 'export const a = 1;');
  await write('web/app/root.test.tsx', 'test');
  await write('miniapp/src/main.tsx', 'export const b = 1;');
  await write('shared/src/amounts.ts', 'export const c = 1;');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the fingerprint of the client sources', () => {
  it('changes with a bundled file, not with a test, a dependency or an output', async () => {
    const first = await sourceFingerprint(root);
    await write('web/app/root.test.tsx', 'changed test');
    await write('web/app/node_modules/x/index.js', 'dependency');
    await write('web/build/server/index.js', 'output');
    expect(await sourceFingerprint(root)).toBe(first);
    await write('shared/src/amounts.ts', 'export const c = 2;');
    const second = await sourceFingerprint(root);
    expect(second).not.toBe(first);
    await write('miniapp/src/new.tsx', 'export {};');
    expect(await sourceFingerprint(root)).not.toBe(second);
  });
});

describe("the launcher's production builds", () => {
  const env = { ...process.env, NODE_ENV: 'development', WEB_BUILD_DIR: '', MINIAPP_BUILD_DIR: '' };
  const quiet = () => {};

  it('builds when missing, for production, then reuses the builds until a source changes', async () => {
    const lines: string[] = [];
    const first = await ensureClientBuilds(root, env, (line) => lines.push(line));
    expect(first.map((outcome) => outcome.built)).toEqual([true, true]);
    // NODE_ENV=production whatever the stack's: a development NODE_ENV bundles React's dev build.
    expect(await runs()).toEqual(['WEB_BUILD_DIR production', 'MINIAPP_BUILD_DIR production']);
    expect(lines.join('\n')).toMatch(/building the portal into web\/build \(no build yet\)/);
    expect(lines.join('\n')).toMatch(/portal: ✓ built in/);
    expect(await readFile(path.join(root, 'web/build/server/index.js'), 'utf8')).toBe('built');

    const again = await ensureClientBuilds(root, env, quiet);
    expect(again.map((outcome) => outcome.built)).toEqual([false, false]);
    expect(await runs()).toHaveLength(2);

    await write('web/app/root.tsx', 'export const a = 2;');
    const changed: string[] = [];
    await ensureClientBuilds(root, env, (line) => changed.push(line));
    expect(await runs()).toHaveLength(4);
    expect(changed.join('\n')).toMatch(
      /building the portal into web\/build \(its sources changed\)/,
    );
  });

  it('builds into the folders WEB_BUILD_DIR and MINIAPP_BUILD_DIR name', async () => {
    const own = { ...env, WEB_BUILD_DIR: 'web/.e2e-build-x', MINIAPP_BUILD_DIR: 'miniapp/.e2e-x' };
    const outcomes = await ensureClientBuilds(root, own, quiet);
    expect(outcomes.map((outcome) => path.relative(root, outcome.dir))).toEqual([
      'web/.e2e-build-x',
      'miniapp/.e2e-x',
    ]);
    expect(await readFile(path.join(root, 'miniapp/.e2e-x/index.html'), 'utf8')).toBe('built');
  });

  it('builds once when two launchers start side by side', async () => {
    const both = await Promise.all([
      ensureClientBuilds(root, env, quiet),
      ensureClientBuilds(root, env, quiet),
    ]);
    expect(await runs()).toHaveLength(2);
    expect(both.flat().filter((outcome) => outcome.built)).toHaveLength(2);
  });

  it('fails with the build’s last lines, and does not count a failed build as current', async () => {
    const failing = { ...env, FAIL_BUILD: '1' };
    await expect(ensureClientBuilds(root, failing, quiet)).rejects.toThrow(
      /npm run build -w web failed \(exit code 3\)[\s\S]*vite: something broke/,
    );
    const after = await ensureClientBuilds(root, env, quiet);
    expect(after.map((outcome) => outcome.built)).toEqual([true, true]);
  });
});
