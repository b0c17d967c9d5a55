import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixtureTree, REPO_ROOT, runTool } from './fixture-tree.ts';

/*
 * The import boundaries and the cycle check (.dependency-cruiser.cjs, decision 028) fire on
 * fixture trees that break them, and stay quiet on the imports the design allows.
 */

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The violations dependency-cruiser finds in a fixture tree, as `rule: from -> to`. */
function cruise(root: string): string[] {
  const config = path.join(REPO_ROOT, '.dependency-cruiser.cjs');
  const run = runTool(
    'dependency-cruiser',
    'bin/dependency-cruiser.mjs',
    ['--config', config, '--output-type', 'json', '.'],
    root,
  );
  const output = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  const violations = output.summary.violations
    .filter((violation) => violation.rule.name !== 'not-to-unresolvable')
    .map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`);
  return violations.sort();
}

describe('import boundaries', () => {
  let tree: ReturnType<typeof fixtureTree>;
  beforeAll(() => {
    tree = fixtureTree('boundaries');
  });
  afterAll(() => tree.remove());

  it('fires on each forbidden import, and on no allowed one', () => {
    expect(cruise(tree.root)).toEqual(
      [
        // An app importing another, by package name and by path.
        'no-app-imports-another-app:miniapp: miniapp/src/main.ts -> web/app/amounts.ts',
        'no-app-imports-another-app:hasura/engine: hasura/engine/src/main.ts -> hasura/actions/src/handler.ts',
        'client-imports-no-app: client/src/web-piece.ts -> web/app/amounts.ts',
        // Browser code importing server code (a *.server module and web/server may).
        'browser-code-imports-no-server-code: web/app/orders.ts -> pg',
        'browser-code-imports-no-server-code: web/app/orders.ts -> shared/src/db/index.ts',
        'browser-code-imports-no-node-builtin: web/app/read-file.ts -> fs',
        // shared's browser-safe modules are held to the same rules.
        'shared-browser-modules-import-no-server-code: shared/src/forms/index.ts -> shared/src/log/index.ts',
        'shared-browser-modules-import-no-node-builtin: shared/src/forms/digest.ts -> crypto',
        // The engine importing the product (shared/src/log is generic and allowed).
        'engine-imports-nothing-of-the-product: hasura/engine/src/main.ts -> shared/src/forms/index.ts',
      ].sort(),
    );
  });
});

describe('cycle check', () => {
  let tree: ReturnType<typeof fixtureTree>;
  beforeAll(() => {
    tree = fixtureTree('cycle');
  });
  afterAll(() => tree.remove());

  it('fires on modules that import each other', () => {
    // One cycle, reported once (one-way.ts, which imports labels.ts, is not part of it).
    expect(cruise(tree.root)).toEqual([
      'no-circular: shared/src/labels.ts -> shared/src/statuses.ts',
    ]);
  });
});
