import path from 'node:path';

import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixtureTree, REPO_ROOT } from './fixture-tree.ts';

/*
 * The 400-line cap and the rules of hooks (eslint.config.js, decision 028) fire on a fixture
 * tree, with the repository's configuration; page content is exempt from the cap.
 */

describe('eslint fences', () => {
  let tree: ReturnType<typeof fixtureTree>;
  let rulesByFile: Map<string, string[]>;

  beforeAll(async () => {
    tree = fixtureTree('eslint');
    // With an explicit config file, its globs are relative to cwd: the fixture's root.
    const eslint = new ESLint({
      cwd: tree.root,
      overrideConfigFile: path.join(REPO_ROOT, 'eslint.config.js'),
    });
    const results = await eslint.lintFiles(['web']);
    rulesByFile = new Map(
      results.map((result) => [
        path.relative(tree.root, result.filePath),
        result.messages.map((message) => message.ruleId ?? message.message),
      ]),
    );
  });
  afterAll(() => tree.remove());

  it('caps a module at 400 lines of code', () => {
    expect(rulesByFile.get('web/app/too-long.ts')).toContain('max-lines');
    expect(rulesByFile.get('web/app/at-the-cap.ts')).not.toContain('max-lines');
  });

  it('exempts page content from the cap', () => {
    expect(rulesByFile.get('web/app/content/pages/long-page.ts')).not.toContain('max-lines');
  });

  it('enforces the rules of hooks', () => {
    expect(rulesByFile.get('web/app/hooks.tsx')).toEqual(
      expect.arrayContaining(['react-hooks/exhaustive-deps', 'react-hooks/rules-of-hooks']),
    );
  });
});
