import { existsSync } from 'node:fs';

import { groups as groupConfigs, type GroupConfig } from './config.ts';
import { listGroupsOnDisk, loadGroup, type LoadedCase, type LoadedGroup } from './corpus.ts';
import type { DatabaseProvider } from './database.ts';
import type { CaseResult } from './report.ts';
import { UsageError, type Options } from './run-options.ts';

/*
 * Which groups and cases a run takes (the options against the corpus on disk), why one is
 * skipped, and the blank result a skipped case records.
 */

// ---------------------------------------------------------------------------------------------
// Selection and validation.

export interface Selection {
  groups: { loaded: LoadedGroup; config: GroupConfig; cases: LoadedCase[] }[];
}

export async function select(options: Options): Promise<Selection> {
  if (!existsSync(options.corpusDir)) {
    throw new UsageError(
      `corpus not found at ${options.corpusDir} (set --corpus or HASURA_CONFORMANCE_DIR)`,
    );
  }
  const onDisk = listGroupsOnDisk(options.corpusDir);
  const configured = Object.keys(groupConfigs);
  const unlisted = onDisk.filter((name) => !configured.includes(name));
  const missing = configured.filter((name) => !onDisk.includes(name));
  if (unlisted.length || missing.length) {
    throw new UsageError(
      `tests/conformance/config.ts must list exactly the corpus groups: ${
        unlisted.length ? `not listed: ${unlisted.join(', ')}` : ''
      }${missing.length ? ` not in the corpus: ${missing.join(', ')}` : ''}`,
    );
  }
  for (const name of options.groups) {
    if (!configured.includes(name))
      throw new UsageError(`no group ${name} (groups: ${configured.join(', ')})`);
  }
  const names = options.groups.length
    ? configured.filter((name) => options.groups.includes(name))
    : configured;
  const selection: Selection = { groups: [] };
  for (const name of names) {
    const loaded = await loadGroup(options.corpusDir, name);
    const config = groupConfigs[name] ?? {};
    const files = new Set(loaded.cases.map((testCase) => testCase.file));
    for (const file of [
      ...Object.keys(config.skipCases ?? {}),
      ...Object.keys(config.caseServer ?? {}),
      ...Object.keys(config.skipRequests ?? {}),
    ]) {
      if (!files.has(file))
        throw new UsageError(`config.ts names ${name}/${file}, which group.yaml does not list`);
    }
    for (const [file, requests] of Object.entries(config.skipRequests ?? {})) {
      const body = loaded.cases.find((testCase) => testCase.file === file)?.body;
      const count = body?.kind === 'requests' ? body.requests.length : 0;
      for (const number of Object.keys(requests).map(Number)) {
        if (!(number >= 1 && number <= count)) {
          throw new UsageError(`config.ts skipRequests: ${name}/${file} has no request #${number}`);
        }
      }
    }
    const cases = options.cases.length
      ? loaded.cases.filter((testCase) => options.cases.includes(testCase.file))
      : loaded.cases;
    if (cases.length) selection.groups.push({ loaded, config, cases });
  }
  if (selection.groups.length === 0)
    throw new UsageError('no case matches the --group/--case selection');
  return selection;
}

export function skipReason(
  config: GroupConfig,
  testCase: LoadedCase,
  provider?: DatabaseProvider,
): string | undefined {
  if (config.skip) return `group skipped: ${config.skip}`;
  if (provider?.kind === 'pglite' && config.pgliteUnsupported) {
    return `cannot run on PGlite: ${config.pgliteUnsupported}`;
  }
  return config.skipCases?.[testCase.file];
}

export function blankResult(
  testCase: LoadedCase,
  status: CaseResult['status'],
  reason?: string,
): CaseResult {
  return {
    group: testCase.group,
    file: testCase.file,
    status,
    ...(reason === undefined ? {} : { reason }),
    failures: [],
    drift: [],
    notes: [],
    durationMs: 0,
  };
}
