/*
 * `postinstall`: installs the optional native packages npm left out because npm itself ran on
 * an older Node than the project's (decision 053).
 *
 * npm decides whether an optional dependency fits by the Node that runs npm, not the one the
 * project runs on: on a machine whose own node is 20, `npm ci` marks Hardhat's native chain
 * engine (`@nomicfoundation/edr-linux-x64-gnu`, engines `>= 22`) as not installable and skips
 * it, although every project command runs on the pinned Node 24 (decision 026). This runs as
 * the root's postinstall, on Node 24 (npm puts node_modules/.bin first on PATH), and for each
 * optional package of the lockfile that fits this machine's platform, whose dependent is
 * installed but which is missing (npm installs every other such package itself), fetches the exact version the lockfile pins
 * through npm (`npm pack`, the same registry and cache), checks the tarball against the
 * lockfile's integrity, and unpacks it where npm would have put it. Nothing else is touched.
 * Nothing in an image build (Node 24 runs npm there) or on a machine whose node is new enough
 * is missing, so there it does nothing.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface LockEntry {
  version?: string;
  integrity?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const root = path.resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** npm's own platform rule: a list matches unless it names others only, or excludes this one. */
function fits(list: string[] | undefined, value: string | undefined): boolean {
  if (!list || list.length === 0) return true;
  if (value === undefined) return false;
  if (list.includes(`!${value}`)) return false;
  const allowed = list.filter((item) => !item.startsWith('!'));
  return allowed.length === 0 || allowed.includes(value);
}

const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
const libc =
  process.platform === 'linux'
    ? report.header?.glibcVersionRuntime
      ? 'glibc'
      : 'musl'
    : undefined;

/** The package name of a lockfile path (`node_modules/@scope/name` or nested). */
const nameOf = (location: string) => location.slice(location.lastIndexOf('node_modules/') + 13);

function missingOptionals(): Array<{ location: string; name: string; entry: LockEntry }> {
  const missing = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location || !entry.optional || !entry.version || !entry.integrity) continue;
    if (existsSync(path.join(root, location, 'package.json'))) continue;
    if (!fits(entry.os, process.platform) || !fits(entry.cpu, process.arch)) continue;
    if (!fits(entry.libc, libc)) continue;
    const name = nameOf(location);
    // Only for a dependent that is installed (a dev tool is absent under --omit=dev).
    const wanted = Object.entries(lock.packages).some(
      ([dependent, info]) =>
        info.optionalDependencies?.[name] !== undefined &&
        existsSync(path.join(root, dependent, 'package.json')),
    );
    if (wanted) missing.push({ location, name, entry });
  }
  return missing;
}

for (const { location, name, entry } of missingOptionals()) {
  const work = mkdtempSync(path.join(tmpdir(), 'optional-native-'));
  try {
    const spec = `${name}@${entry.version}`;
    const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    })
      .trim()
      .split('\n')
      .at(-1)!;
    const tarball = path.join(work, file);
    const [algorithm, expected] = entry.integrity!.split('-', 2) as [string, string];
    const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64');
    if (actual !== expected) throw new Error(`${spec}: the tarball does not match the lockfile`);
    const target = path.join(root, location);
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    const npmNode = /node\/(v[\d.]+)/.exec(process.env['npm_config_user_agent'] ?? '')?.[1];
    process.stdout.write(`installed ${spec}, which npm on Node ${npmNode ?? '?'} left out\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
