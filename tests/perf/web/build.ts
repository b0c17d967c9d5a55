import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';

/*
 * The floor page the benchmarks measure beside the product: tests/perf/web/floor/, an empty
 * React 18 app built by Vite into .data/web-bench/. (The portal and the mini-app are built by
 * the launcher, as `npm start` builds them: web/stack.ts.)
 */

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
