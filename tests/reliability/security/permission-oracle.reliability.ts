import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { recordFigures } from '../figures.ts';
import { byProfile, PROFILE } from '../profile.ts';
import type { Role } from '../hostile/graphql-shots.ts';

import { mutationRecipe } from './oracle/hidden.ts';
import {
  checkAnswer,
  checkHiddenChanges,
  FAILING,
  OracleTally,
  poisonQuery,
  startOracle,
  withPrint,
  type Finding,
  type FindingKind,
  type HiddenRun,
  type Oracle,
} from './oracle/oracle.ts';
import { poisonRecipe } from './oracle/poison.ts';
import type { OracleQuery } from './oracle/query.ts';

/*
 * The permission oracle (issue 19, "Prove it stays closed"; SECURITY.md row 19): for every
 * tracked table and every role, operations generated from what the role's own schema lists,
 * over HTTP and over the WebSocket (queries and live subscriptions), judged by two properties:
 *
 * (a) the role's answer equals the answer computed as admin over only the rows the role's
 *     permission admits; an operation carrying one construct the role's schema does not list
 *     (`_exists`, `_ceq`, a hidden column, a relationship to a table it may not select, a
 *     `<rel>_aggregate` filter, ...) is refused with a validation error, never answered;
 * (b) changing rows the role may not see never changes its answer (nor pushes a new result to
 *     its live subscriptions).
 *
 * Decisions:
 * - The reference for (a) is not a rewritten query but a database: a copy holding only the rows
 *   the role admits (oracle/restricted.ts), served by its own engine and asked the very same
 *   operation as admin. Whatever the operation does (filters through relationships in both
 *   directions, order_by through object relationships and aggregates, distinct_on, aggregates,
 *   nested selections, limits), the reference cannot see a row the role may not, so every
 *   difference is information from a hidden row. Views and the scalar computed field
 *   (queue_position, which counts every waiting order by design) are carried over as the full
 *   database computes them; a role that sees every row of everything it may select
 *   (administrator) is answered by the full database's engine as admin.
 * - Admitted rows are computed by the oracle's own SQL from hasura/metadata (oracle/metadata.ts),
 *   not by the engine, so that a fault in the engine's compilation of filters cannot hide itself.
 * - Operations come from each role's introspected schema (oracle/schema-model.ts), values from
 *   the data, hidden rows included (oracle/pools.ts). Answers are compared exactly: every list
 *   with a limit, offset, distinct_on or order_by gets a total order (the primary key last);
 *   other lists are compared as multisets.
 * - Refusal checks take a valid operation and put one unlisted construct in it (oracle/poison.ts):
 *   from a fixed list and from the admin's schema minus the role's, at any depth. No schema
 *   lists `<table>_stream` (the engine leaves streaming subscriptions out), so those are probed
 *   as unlisted root fields of subscriptions. Also probed: an inline fragment on another type,
 *   and an unlisted field under @skip(if: true) / @include(if: false). GraphQL validates a
 *   document before running it, so both are errors; Hasura (Parser/Collect.hs) drops them unread
 *   instead. The engine now refuses the fragment (an `ignored-unlisted` finding fails the check,
 *   SECURITY.md row 18) and, as the official engine in production, drops a skipped field before
 *   resolving it: answered exactly as without it, that is the `skipped-by-directive` outcome,
 *   counted and not failing (decision 018); answered any other way, it is judged as a leak.
 * - The oracle's database ignores every write but the oracle's own (oracle/seed.ts
 *   freezeTables): the product's minute crons (rates, order deadlines) would otherwise change
 *   rows between the reference copy and a request.
 * - (b) changes one column of a hidden row, or deletes it, as the database owner with triggers
 *   off, and undoes it (oracle/hidden.ts); a change that shows in anything the role may read (a
 *   view over a referral's orders, the queue position) is skipped, not counted.
 * - Seeded and replayable: the seed is printed first; ORACLE_SEED=<n> replays a run. Each
 *   property runs its whole budget and counts every finding (oracle_leaks); when one fails,
 *   the first failing run is replayed (fast-check `path`) and shrunk to a minimal counterexample,
 *   which the assertion prints with the seed.
 * - Budgets per database: short (CI) about 2,200 judged operations (2,000 for (a) and the
 *   refusals, 80 batches of (b)), within about 2 minutes here; full (`--full`) 23,000 over the
 *   run, shared by the databases; ORACLE_QUERIES and ORACLE_HIDDEN_RUNS override them.
 * - Findings that fail: a differing answer, an answer changed by hidden rows, an unlisted
 *   construct answered with data (oracle_leaks counts these), an unlisted construct ignored, a
 *   refusal that is not a validation error, no answer. Reported without failing: a listed construct refused while the
 *   admin's answer had data, and the reference refusing what the role was answered.
 */

const SEED = Number(process.env['ORACLE_SEED'] ?? Date.now() % 2_147_483_647);
/**
 * The full profile judges at least 20,000 operations over the whole run (with a margin), shared
 * by the databases there are (PGlite, and PostgreSQL when it answers).
 */
const FULL_PER_DATABASE = Math.ceil(23_000 / databaseTargets.length);
/** Operations judged by property (a) and the refusal checks, per database. */
const ANSWER_QUERIES = Number(
  process.env['ORACLE_QUERIES'] ??
    byProfile({ short: 2_000, full: Math.ceil(FULL_PER_DATABASE * 0.85) }),
);
/** Batches of property (b) per database (each: up to 6 operations, 1-3 hidden changes; ~3.5 judged). */
const HIDDEN_RUNS = Number(
  process.env['ORACLE_HIDDEN_RUNS'] ??
    byProfile({ short: 80, full: Math.ceil((FULL_PER_DATABASE * 0.15) / 3.5) }),
);
/** Operations in flight at once (property a). */
const PARALLEL = 6;
/** How long shrinking a counterexample may take (it replays operations, and waits for live ones). */
const SHRINK_MS = byProfile({ short: 60_000, full: 180_000 });

process.stdout.write(
  `[permission-oracle] seed ${SEED} (ORACLE_SEED=${SEED} replays this run), ${PROFILE} profile\n`,
);

/** The order a counterexample is chosen in: the worst kind of failure first. */
const SEVERITY: FindingKind[] = [
  'answer-differs',
  'changed-by-hidden-rows',
  'unlisted-read-hidden-rows',
  'accepted-unlisted',
  'ignored-unlisted',
  'wrong-refusal',
  'no-answer',
];

/**
 * Runs a property over its whole budget, counting every finding; when a run failed, replays the
 * first run with the worst kind of failure (fast-check `path`) and shrinks it to the smallest
 * value that still fails that way. Returns the shrunk counterexample's report, if any.
 */
async function runProperty<T>(
  arbitrary: fc.Arbitrary<T>,
  numRuns: number,
  check: (value: T, tally: OracleTally) => Promise<Finding[]>,
  tally: OracleTally,
): Promise<string | undefined> {
  let index = 0;
  const firstRun = new Map<FindingKind, number>();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      const run = index;
      index += 1;
      for (const finding of await check(value, tally))
        if (FAILING.has(finding.kind) && !firstRun.has(finding.kind))
          firstRun.set(finding.kind, run);
    }),
    { seed: SEED, numRuns },
  );
  const kind = SEVERITY.find((item) => firstRun.has(item));
  if (kind === undefined) return undefined;
  const scratch = new OracleTally();
  // fast-check reports the last value that failed: its finding is the minimal one's.
  let last: Finding | undefined;
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        const finding = (await check(value, scratch)).find((item) => item.kind === kind);
        if (finding) {
          last = finding;
          throw new Error(
            `${finding.kind} as ${finding.role}: ${finding.query}\n${finding.detail}`,
          );
        }
      }),
      {
        seed: SEED,
        path: String(firstRun.get(kind)),
        numRuns: 1,
        endOnFailure: false,
        interruptAfterTimeLimit: SHRINK_MS,
      },
    );
    return `run ${firstRun.get(kind)} (${kind}) did not fail again when replayed`;
  } catch (error) {
    const minimal = last ? `\n${last.kind} as ${last.role}: ${last.query}\n${last.detail}` : '';
    return `${(error as Error).message}${minimal}`;
  }
}

function findingsReport(tally: OracleTally): string {
  return tally.findings
    .filter((finding) => FAILING.has(finding.kind))
    .slice(0, 12)
    .map((finding) => `- ${finding.kind} as ${finding.role}: ${finding.query}\n  ${finding.detail}`)
    .join('\n');
}

describe.each(databaseTargets)('permission oracle on $name', (target) => {
  let oracle: Oracle;
  /** Property (a) with the refusal checks, and property (b): counted apart, reported together. */
  const answers = new OracleTally();
  const hidden = new OracleTally();
  const seconds: Record<string, number> = {};

  beforeAll(async () => {
    oracle = await startOracle(target);
    seconds['setup'] = oracle.setupSeconds;
    process.stdout.write(
      `[permission-oracle] ${target.name}: ready in ${oracle.setupSeconds} s ${JSON.stringify(oracle.setupSteps)}\n`,
    );
  });

  afterAll(async () => {
    const queries = answers.queries + hidden.queries;
    const leaks = answers.leaks + hidden.leaks;
    recordFigures({
      check: 'permission-oracle',
      figures: { oracle_queries: queries, oracle_leaks: leaks },
      details: {
        database: target.name,
        seed: SEED,
        profile: PROFILE,
        seconds,
        setupSteps: oracle?.setupSteps,
        answers: answers.summary(),
        hidden: hidden.summary(),
      },
    });
    process.stdout.write(
      `[permission-oracle] ${target.name}: ${queries} operations judged (a: ${answers.queries}, b: ${hidden.queries}), ${leaks} leak(s), seconds ${JSON.stringify(seconds)}\n` +
        `  (a) outcomes ${JSON.stringify(answers.outcomes)} findings ${JSON.stringify(answers.findingCounts)}\n` +
        `  (b) outcomes ${JSON.stringify(hidden.outcomes)} findings ${JSON.stringify(hidden.findingCounts)} changes ${JSON.stringify(hidden.mutations)} (seed ${SEED})\n`,
    );
    await oracle?.close();
  });

  /** A role's operations: listed ones, and `poisonPercent` % with one unlisted construct. */
  function operations(role: Role, poisonPercent: number): fc.Arbitrary<OracleQuery> {
    const generator = oracle.generators.get(role)!;
    const context = oracle.poisonContexts.get(role)!;
    const argTypes = generator.model.argTypes;
    return fc
      .oneof(
        { weight: 100 - poisonPercent, arbitrary: generator.query },
        {
          weight: poisonPercent,
          arbitrary: fc
            .tuple(generator.query, poisonRecipe)
            .map(([query, recipe]) => poisonQuery(context, query, recipe)),
        },
      )
      .map((query) => withPrint(query, argTypes));
  }

  it('(a) every role is answered as admin over its admitted rows, and refused what its schema does not list', async () => {
    const started = Date.now();
    const roles = [...oracle.generators.keys()];
    const arbitrary = fc.array(fc.oneof(...roles.map((role) => operations(role, 25))), {
      minLength: 1,
      maxLength: PARALLEL,
    });
    const counterexample = await runProperty(
      arbitrary,
      Math.ceil(ANSWER_QUERIES / ((1 + PARALLEL) / 2)),
      async (queries, into) => {
        const findings = await Promise.all(
          queries.map((query) => checkAnswer(oracle, query, into)),
        );
        return findings.filter((finding): finding is Finding => finding !== undefined);
      },
      answers,
    );
    seconds['answers'] = (Date.now() - started) / 1000;
    expect(
      counterexample,
      `seed ${SEED}: minimal counterexample:\n${counterexample}\n\nfindings:\n${findingsReport(answers)}`,
    ).toBeUndefined();
    expect(answers.failures, findingsReport(answers)).toBe(0);
    // Every table each role may select was asked about at its root.
    for (const [role, generator] of oracle.generators)
      for (const table of new Set(generator.model.query.select.values()))
        expect(answers.rootTables[`${role}:${table}`] ?? 0, `${role} on ${table}`).toBeGreaterThan(
          0,
        );
    expect(answers.queries).toBeGreaterThanOrEqual(ANSWER_QUERIES * 0.8);
  });

  it('(b) changing rows a role may not see never changes its answers', async () => {
    const started = Date.now();
    const roles = oracle.rolesWithHiddenRows;
    const runs = fc.oneof(
      ...roles.map((role) => {
        const live = oracle.generators.get(role)!.subscription;
        return fc.record({
          role: fc.constant(role),
          queries: fc.array(operations(role, 10), { minLength: 1, maxLength: 6 }),
          live: live
            ? fc.oneof(
                { weight: 4, arbitrary: fc.constant<OracleQuery[]>([]) },
                { weight: 1, arbitrary: fc.array(live, { minLength: 1, maxLength: 4 }) },
              )
            : fc.constant<OracleQuery[]>([]),
          mutations: fc.array(mutationRecipe, { minLength: 1, maxLength: 3 }),
        });
      }),
    );
    const counterexample = await runProperty<HiddenRun>(
      runs,
      HIDDEN_RUNS,
      (run, into) => checkHiddenChanges(oracle, run, into),
      hidden,
    );
    seconds['hidden'] = (Date.now() - started) / 1000;
    expect(
      counterexample,
      `seed ${SEED}: minimal counterexample:\n${counterexample}\n\nfindings:\n${findingsReport(hidden)}`,
    ).toBeUndefined();
    expect(hidden.failures, findingsReport(hidden)).toBe(0);
    expect(hidden.mutations.applied).toBeGreaterThan(0);
  });
});
