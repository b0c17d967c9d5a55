import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * The builds the benchmark measures, each in a folder of its own under .data/web-bench/ so that
 * a concurrent `npm run build -w web` (the end-to-end suite runs one) cannot replace the files
 * under the running server:
 * - the portal: a copy of web/ (sources as they are now, without build/ and .react-router/),
 *   built there with `react-router build` and NODE_ENV=production;
 * - the floor: tests/perf/web/floor/, an empty React 18 app built by Vite.
 */

/** What a copy of the portal leaves out: outputs and generated files. */
const SKIPPED = new Set(['build', 'node_modules', '.react-router']);

/** Runs a command, failing with its output when it exits non-zero. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

/** The environment a production build needs (the e2e stack's NODE_ENV=development would give React's development build). */
function productionEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: 'production' };
}

/**
 * Copies web/ into `target` and builds it there; returns the build folder (client/ and server/).
 * The copy lives inside the repository so that packages resolve from the root node_modules.
 */
export async function buildPortal(repoRoot: string, target: string): Promise<string> {
  const source = path.join(repoRoot, 'web');
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const entry of await readdir(source)) {
    if (SKIPPED.has(entry)) continue;
    await cp(path.join(source, entry), path.join(target, entry), { recursive: true });
  }
  // The base tsconfig is extended by a relative path; point the copy at the original.
  const tsconfigPath = path.join(target, 'tsconfig.json');
  const tsconfig = JSON.parse(await readFile(tsconfigPath, 'utf8')) as { extends?: string };
  if (tsconfig.extends?.startsWith('.')) {
    tsconfig.extends = path.resolve(source, tsconfig.extends);
    await writeFile(tsconfigPath, JSON.stringify(tsconfig, null, 2));
  }
  // The workspace's own node_modules holds versions that differ from the root's.
  if (existsSync(path.join(source, 'node_modules'))) {
    await symlink(path.join(source, 'node_modules'), path.join(target, 'node_modules'), 'dir');
  }
  const cli = path.join(repoRoot, 'node_modules', '@react-router', 'dev', 'bin.js');
  await run(process.execPath, [cli, 'build'], { cwd: target, env: productionEnv() });
  return path.join(target, 'build');
}

/** Builds the floor app (tests/perf/web/floor/, no config file: Vite's defaults) into `outDir`. */
export async function buildFloor(repoRoot: string, outDir: string): Promise<string> {
  const root = path.join(repoRoot, 'tests', 'perf', 'web', 'floor');
  const vite = path.join(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  await rm(outDir, { recursive: true, force: true });
  await run(process.execPath, [vite, 'build', root, '--outDir', outDir, '--emptyOutDir'], {
    cwd: root,
    env: productionEnv(),
  });
  return outDir;
}
