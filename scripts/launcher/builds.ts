/*
 * The production builds `npm start` serves (issue 20): the portal (React Router, `npm run build
 * -w web`) and the mini-app (Vite, `npm run build -w miniapp`). Each is rebuilt only when what
 * it is made of changed since its last build: a fingerprint of its sources is kept beside it.
 * One launcher builds a folder at a time (a lock beside it), so starts side by side (tests, a
 * second terminal) wait for one build instead of writing the same files at once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';

import lockfile from 'proper-lockfile';

export interface ClientBuild {
  /** Its name in progress lines. */
  name: string;
  workspace: 'web' | 'miniapp';
  /** The variable through which the build and the web server take another folder. */
  dirVariable: 'WEB_BUILD_DIR' | 'MINIAPP_BUILD_DIR';
  /** Default folder, relative to the repository root. */
  defaultDir: string;
  /** A file every complete build has, relative to its folder. */
  entry: string;
}

/** Files and folders (relative to the root) whose content makes the client builds. */
export const BUILD_SOURCES = [
  'web/app',
  'web/public',
  'web/vite.config.ts',
  'web/react-router.config.ts',
  'web/package.json',
  'miniapp/src',
  'miniapp/index.html',
  'miniapp/vite.config.ts',
  'miniapp/package.json',
  'client/src',
  'client/package.json',
  'shared/src',
  'shared/package.json',
  'package-lock.json',
];

/** Tests, benchmarks and stories sit beside the code but never reach a bundle. */
const NOT_BUNDLED = /\.(test|spec|perf|bench)\.tsx?$/;

export const CLIENT_BUILDS: ClientBuild[] = [
  {
    name: 'portal',
    workspace: 'web',
    dirVariable: 'WEB_BUILD_DIR',
    defaultDir: 'web/build',
    entry: 'server/index.js',
  },
  {
    name: 'mini-app',
    workspace: 'miniapp',
    dirVariable: 'MINIAPP_BUILD_DIR',
    defaultDir: 'miniapp/dist',
    entry: 'index.html',
  },
];

/** Kept in the build's folder once it is complete. */
const FINGERPRINT_FILE = '.source-fingerprint';

/** A hash of the sources' paths and contents (about 350 files, a few MB: some 50 ms). */
export async function sourceFingerprint(root: string): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (relative: string): Promise<void> => {
    const full = path.join(root, relative);
    const entries = await readdir(full, { withFileTypes: true }).catch(() => null);
    if (entries === null) {
      const content = await readFile(full).catch(() => null);
      if (content !== null && !NOT_BUNDLED.test(relative)) {
        hash.update(`${relative}\0${content.length}\0`).update(content);
      }
      return;
    }
    const names = entries
      .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
    for (const name of names) await visit(path.join(relative, name));
  };
  for (const source of BUILD_SOURCES) await visit(source);
  return hash.digest('hex');
}

export function buildDir(root: string, build: ClientBuild, env: NodeJS.ProcessEnv): string {
  const configured = env[build.dirVariable];
  return configured ? path.resolve(root, configured) : path.join(root, build.defaultDir);
}

/** Whether the folder holds a complete build made of these sources. */
async function isCurrent(dir: string, build: ClientBuild, fingerprint: string) {
  if (!existsSync(path.join(dir, build.entry))) return false;
  const kept = await readFile(path.join(dir, FINGERPRINT_FILE), 'utf8').catch(() => null);
  return kept === fingerprint;
}

/** Vite's lines that tell how far a build is, shown as it runs; the rest only on failure. */
const PROGRESS_LINE = /^(vite v|transforming|rendering|computing|✓ \d+ modules|✓ built in)/;
const TAIL_LINES = 40;

/** `npm run build -w <workspace>` into `dir`, its progress lines passed to `say`. */
function runBuild(
  root: string,
  build: ClientBuild,
  dir: string,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '-w', build.workspace], {
      cwd: root,
      // A production bundle whatever NODE_ENV the stack runs with (Vite would otherwise bundle
      // React's development build under NODE_ENV=development).
      env: { ...env, NODE_ENV: 'production', [build.dirVariable]: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    const read = (stream: NodeJS.ReadableStream) =>
      createInterface({ input: stream }).on('line', (raw) => {
        // eslint-disable-next-line no-control-regex -- Vite colours its output on a terminal
        const line = raw.replace(/\x1b\[[0-9;]*m/g, '').trim();
        if (!line) return;
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
        if (PROGRESS_LINE.test(line)) say(`  ${build.name}: ${line}`);
      });
    read(child.stdout);
    read(child.stderr);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `npm run build -w ${build.workspace} failed (${signal ?? `exit code ${code}`}); its last lines:\n${tail.join('\n')}`,
          ),
        );
    });
  });
}

export interface BuildOutcome {
  build: ClientBuild;
  dir: string;
  /** False when the folder already held a build of the same sources. */
  built: boolean;
  ms: number;
}

/**
 * Makes sure each client build in its folder is made of the current sources, building it when
 * missing or stale; `say` gets a line per step and Vite's progress lines.
 */
export async function ensureClientBuilds(
  root: string,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<BuildOutcome[]> {
  const fingerprint = await sourceFingerprint(root);
  const outcomes: BuildOutcome[] = [];
  for (const build of CLIENT_BUILDS) {
    const started = Date.now();
    const dir = buildDir(root, build, env);
    const relative = path.relative(root, dir) || dir;
    await mkdir(path.dirname(dir), { recursive: true });
    // Held while checking and building; another launcher waits (a build takes some 10-30 s),
    // then finds the build current. A holder that died leaves a lock that goes stale in 10 s.
    const release = await lockfile.lock(dir, {
      realpath: false,
      stale: 10_000,
      update: 2_000,
      retries: { retries: 180, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 },
      onCompromised: (error) => say(`the lock on ${relative} was lost: ${error.message}`),
    });
    try {
      if (await isCurrent(dir, build, fingerprint)) {
        outcomes.push({ build, dir, built: false, ms: Date.now() - started });
        continue;
      }
      const why = existsSync(path.join(dir, build.entry)) ? 'its sources changed' : 'no build yet';
      say(`building the ${build.name} into ${relative} (${why})…`);
      await runBuild(root, build, dir, env, say);
      await writeFile(path.join(dir, FINGERPRINT_FILE), fingerprint);
      const ms = Date.now() - started;
      say(`built the ${build.name} in ${(ms / 1000).toFixed(1)} s`);
      outcomes.push({ build, dir, built: true, ms });
    } finally {
      await release();
    }
  }
  return outcomes;
}
