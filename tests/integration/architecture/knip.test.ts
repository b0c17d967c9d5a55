import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixtureTree, REPO_ROOT, runTool } from './fixture-tree.ts';

/*
 * Dead code and npm dependencies (knip.jsonc, decision 028): knip, with the repository's
 * configuration, reports a file no entry reaches, an export nobody imports, a dependency
 * nothing uses and an import of a package the workspace does not declare.
 */

interface FileIssues {
  file: string;
  [kind: string]: unknown;
}

describe('knip', () => {
  let tree: ReturnType<typeof fixtureTree>;
  beforeAll(() => {
    tree = fixtureTree('dead-code');
  });
  afterAll(() => tree.remove());

  it('reports unused files, exports and dependencies, and unlisted dependencies', () => {
    const config = path.join(REPO_ROOT, 'knip.jsonc');
    const run = runTool(
      'knip',
      'bin/knip.js',
      ['--config', config, '--reporter', 'json', '--no-progress'],
      tree.root,
    );
    expect(run.status).toBe(1);
    const { issues } = JSON.parse(run.stdout) as { issues: FileIssues[] };
    const found = issues.flatMap((issue) =>
      Object.entries(issue).flatMap(([kind, items]) =>
        Array.isArray(items)
          ? (items as { name: string }[]).map((item) => `${kind}: ${issue.file} ${item.name}`)
          : [],
      ),
    );
    expect(found.sort()).toEqual(
      [
        'files: shared/src/orphan.ts shared/src/orphan.ts',
        'exports: shared/src/format.ts neverImported',
        'dependencies: shared/package.json left-pad',
        'unlisted: shared/src/amounts.ts zod',
      ].sort(),
    );
  });
});
