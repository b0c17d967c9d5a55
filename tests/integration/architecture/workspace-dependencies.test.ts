import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { undeclaredWorkspaceImports } from '../../../scripts/checks/workspace-dependencies.ts';
import { REPO_ROOT } from './fixture-tree.ts';

/*
 * Every workspace declares the @app/* packages it imports (scripts/checks/
 * workspace-dependencies.ts, decision 028). The check only reads files, so it runs on the
 * fixture tree in place.
 */

describe('workspace dependencies', () => {
  it('reports each @app/* import the workspace does not declare, static or dynamic', () => {
    const root = path.join(REPO_ROOT, 'tests/fixtures/architecture/workspace-dependencies');
    expect(undeclaredWorkspaceImports(root, [])).toEqual([
      { file: 'bot/src/main.ts', imported: '@app/shared', manifest: 'bot/package.json' },
      { file: 'bot/src/main.ts', imported: '@app/web', manifest: 'bot/package.json' },
    ]);
  });
});
