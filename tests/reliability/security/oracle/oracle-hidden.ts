import type { Role } from '../../hostile/graphql-shots.ts';
import {
  applyHiddenMutation,
  filterTargets,
  visibleSnapshot,
  type AppliedMutation,
  type MutationRecipe,
} from './hidden.ts';
import { render, type OracleQuery } from './query.ts';
import { askAsRole, printQuery, type Oracle } from './oracle-engine.ts';
import { type OracleTally, answerKey, describeAnswer, type Finding } from './oracle-findings.ts';
import { judgeRefusal } from './oracle-answers.ts';

/*
 * Hidden changes: a live query must not move when only rows or columns the role cannot see
 * change.
 */

export interface HiddenRun {
  role: Role;
  queries: OracleQuery[];
  live: OracleQuery[];
  mutations: MutationRecipe[];
}

/** Waits long enough for the live queries' refetch (every second) to have run after a change. */
const LIVE_SETTLE_MS = 1_600;

/**
 * Property (b) for a batch: the role's answers (and its live subscriptions) do not change when
 * only rows it may not see change. Returns the findings that fail.
 */
export async function checkHiddenChanges(
  oracle: Oracle,
  run: HiddenRun,
  tally: OracleTally,
): Promise<Finding[]> {
  const { role } = run;
  const pool = oracle.hostile.db.pool;
  const ctx = oracle.permissionContexts.get(role)!;
  const baseline = oracle.baselines.get(role)!;
  const found: Finding[] = [];
  const before = await Promise.all(run.queries.map((query) => askAsRole(oracle, query)));
  const liveRequests = run.live.map((query) =>
    oracle.ws.live(role, render(query, oracle.generators.get(role)!.model.argTypes)),
  );
  const applied: AppliedMutation[] = [];
  let restored = true;
  let outcome: Finding[] = [];
  try {
    outcome = await (async (): Promise<Finding[]> => {
      const firstLive = await Promise.all(liveRequests.map((live) => live.first));
      const models = [oracle.generators.get(role)!.model, oracle.adminModel];
      const targets = filterTargets(models, [...run.queries, ...run.live]);
      for (const recipe of run.mutations) {
        const mutation = await applyHiddenMutation(
          pool,
          ctx,
          role,
          recipe,
          targets,
          oracle.hiddenTables.get(role)!,
        );
        if (mutation) applied.push(mutation);
        else tally.mutations.skippedNoRow += 1;
      }
      if (applied.length === 0) return [];
      const changedAt = Date.now();
      if ((await visibleSnapshot(pool, ctx, role)) !== baseline) {
        // The change shows in what the role may read (a view, a computed field): not hidden.
        tally.mutations.skippedVisible += applied.length;
        return [];
      }
      tally.mutations.applied += applied.length;
      const label = applied.map((mutation) => mutation.label).join('; ');
      const after = await Promise.all(run.queries.map((query) => askAsRole(oracle, query)));
      run.queries.forEach((query, i) => {
        tally.count(`hidden-${query.transport}-${query.operation}`, query);
        const one = before[i]!;
        const two = after[i]!;
        if (one.kind === 'failed' || two.kind === 'failed') {
          const finding: Finding = {
            kind: 'no-answer',
            role,
            query: printQuery(oracle, query),
            detail: `(b) before: ${describeAnswer(one)}; after ${label}: ${describeAnswer(two)}`,
          };
          tally.find(finding);
          found.push(finding);
          return;
        }
        if (answerKey(one, query) !== answerKey(two, query)) {
          const finding: Finding = {
            kind: 'changed-by-hidden-rows',
            role,
            query: printQuery(oracle, query),
            detail: `(b) before: ${describeAnswer(one)}; after ${label}: ${describeAnswer(two)}`,
          };
          tally.find(finding);
          found.push(finding);
        } else tally.outcome('unchanged');
      });
      for (const [i, query] of run.queries.entries()) {
        if (!query.poison) continue;
        const finding = await judgeRefusal(oracle, query, before[i]!, tally, 'b');
        if (finding) found.push(finding);
      }
      if (liveRequests.length > 0) {
        const wait = LIVE_SETTLE_MS - (Date.now() - changedAt);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        run.live.forEach((query, i) => {
          tally.count('hidden-live', query);
          const first = firstLive[i]!;
          const answers = liveRequests[i]!.answers;
          const changed = answers.find(
            (answer) => answerKey(answer, query) !== answerKey(first, query),
          );
          if (first.kind === 'failed') {
            const finding: Finding = {
              kind: 'no-answer',
              role,
              query: printQuery(oracle, query),
              detail: `(b, live) ${describeAnswer(first)}`,
            };
            tally.find(finding);
            found.push(finding);
          } else if (changed) {
            const finding: Finding = {
              kind: 'changed-by-hidden-rows',
              role,
              query: printQuery(oracle, query),
              detail: `(b, live) first: ${describeAnswer(first)}; pushed after ${label}: ${describeAnswer(changed)}`,
            };
            tally.find(finding);
            found.push(finding);
          } else tally.outcome('live-unchanged');
        });
      }
      return found;
    })();
  } finally {
    for (const live of liveRequests) live.close();
    for (const mutation of applied.reverse()) await mutation.undo();
    restored = applied.length === 0 || (await visibleSnapshot(pool, ctx, role)) === baseline;
  }
  if (!restored)
    throw new Error(
      `the oracle failed to undo its changes: ${applied.map((m) => m.label).join('; ')}`,
    );
  return outcome;
}
