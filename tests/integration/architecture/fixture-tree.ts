import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The fences' fixture trees (tests/fixtures/architecture/<rule>/) are small monorepos laid out
 * like this one. Each test copies one to a temporary folder and links its workspaces into
 * node_modules as npm does, so `@app/*` imports resolve to the fixture's own folders and never
 * to the repository's. The tools then run there with the repository's own configuration.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = path.join(REPO_ROOT, 'tests/fixtures/architecture');

interface Manifest {
  name?: string;
  workspaces?: string[];
}

const readManifest = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** A fresh copy of a fixture tree with its workspaces linked; `remove` deletes it. */
export function fixtureTree(name: string): { root: string; remove: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), `fence-${name}-`));
  cpSync(path.join(FIXTURES, name), root, { recursive: true });
  for (const folder of readManifest(path.join(root, 'package.json')).workspaces ?? []) {
    const packageName = readManifest(path.join(root, folder, 'package.json')).name;
    if (!packageName) continue;
    const link = path.join(root, 'node_modules', packageName);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(root, folder), link, 'dir');
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs a tool's bin script from the repository's node_modules with this Node, in `cwd`. */
export function runTool(
  tool: string,
  bin: string,
  args: string[],
  cwd: string,
): { status: number | null; stdout: string; stderr: string } {
  const script = path.join(REPO_ROOT, 'node_modules', tool, bin);
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
