import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

/*
 * The README is followed by people from a fresh clone or a fresh server (issue 20: its
 * "Deploy" section's references resolve inside the repository): every file or folder of the
 * repository it names in code spans exists, and every `npm run <script>` it tells them to run
 * is a script of the root package or of the workspace it names with `-w`.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** Top-level entries a repository path in the README starts with. */
const TOP_LEVEL = [
  '.ci',
  '.env.example',
  'auth-service',
  'bot',
  'client',
  'deploy',
  'docker-compose.yml',
  'Dockerfile',
  'docs',
  'hasura',
  'miniapp',
  'scripts',
  'shared',
  'tests',
  'web',
];

/** Generated or machine-local outputs the README mentions: made by running, not committed. */
const OUTPUTS = /^(\.data|bench-results|web\/build|miniapp\/dist|test-results|playwright-report)\b/;

function repositoryPaths(): string[] {
  const spans = [...readme.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return [
    ...new Set(
      spans
        .map((span) => span.replace(/[:,.]+$/, ''))
        .filter((span) => !span.includes('<') && !span.includes('*') && !span.includes('{'))
        .filter((span) => TOP_LEVEL.some((top) => span === top || span.startsWith(`${top}/`)))
        .filter((span) => !OUTPUTS.test(span)),
    ),
  ];
}

function scripts(packageDir: string): Record<string, string> {
  const manifest = JSON.parse(
    readFileSync(path.join(root, packageDir, 'package.json'), 'utf8'),
  ) as {
    scripts?: Record<string, string>;
  };
  return manifest.scripts ?? {};
}

describe('the README', () => {
  it('names only files and folders that exist in the repository', () => {
    const paths = repositoryPaths();
    // The check reads the README at all: it names dozens of files (decisions, the Caddyfile).
    expect(paths.length).toBeGreaterThan(30);
    expect(paths).toContain('deploy/Caddyfile');
    const missing = paths.filter((relative) => !existsSync(path.join(root, relative)));
    expect(missing, 'named in README.md but not in the repository').toEqual([]);
  });

  it('tells people to run only scripts that exist', () => {
    const commands = [
      ...readme.matchAll(/npm run ([a-z][\w:-]*)(?:\s+(?:-w|--workspace)\s+([\w/@-]+))?/g),
    ];
    expect(commands.length).toBeGreaterThan(10);
    const missing = commands
      .map(([command, script, workspace]) => ({ command, script: script!, workspace }))
      .filter(({ script, workspace }) => !(script in scripts(workspace ?? '.')))
      .map(({ command }) => command);
    expect(missing, 'npm run commands in README.md without a script').toEqual([]);
  });

  it('lays out the tree as it is: every workspace and top-level folder, and nothing else', () => {
    const section = readme.slice(
      readme.indexOf('## Layout'),
      readme.indexOf('\n## ', readme.indexOf('## Layout') + 1),
    );
    const rows = [...section.matchAll(/^\| `([^`]+)\/`/gm)].map((match) => match[1]!);
    const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    const folders = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .filter((name) => name !== 'node_modules' && existsSync(path.join(root, name, '.')))
      .filter(
        (name) => !OUTPUTS.test(name) && name !== 'test-results' && name !== 'playwright-report',
      );
    const tracked = folders.filter((name) => TOP_LEVEL.includes(name));
    expect(
      rows.filter((row) => !existsSync(path.join(root, row))),
      'rows naming no folder',
    ).toEqual([]);
    expect(
      workspaces.filter((workspace) => !rows.includes(workspace)),
      'workspaces without a row',
    ).toEqual([]);
    expect(
      tracked.filter((name) => !rows.some((row) => row === name || row.startsWith(`${name}/`))),
      'top-level folders without a row',
    ).toEqual([]);
  });
});
