import { canonicalData, type OracleQuery } from './query.ts';
import type { Answer } from './transport.ts';
import { askAsRole, askReference, printQuery, type Oracle } from './oracle-engine.ts';
import {
  type OracleTally,
  countOperators,
  describeAnswer,
  excerpt,
  hasData,
  isValidationRefusal,
  queryFilters,
  type Finding,
} from './oracle-findings.ts';

/*
 * Judging one query: the role's answer against the reference's, and whether a refusal is one
 * the role's permissions explain.
 */

/** Whether a refusal check passed; records the finding when not. */
export async function judgeRefusal(
  oracle: Oracle,
  query: OracleQuery,
  answer: Answer,
  tally: OracleTally,
  property: string,
): Promise<Finding | undefined> {
  if (isValidationRefusal(answer)) {
    tally.outcome('refused-as-expected');
    return undefined;
  }
  let finding: Finding;
  const unpoisoned = query.unpoisoned;
  const ignorable =
    query.poison?.startsWith('fragment on ') || query.poison?.startsWith('skipped field');
  if (hasData(answer) && unpoisoned && ignorable) {
    // Answered exactly as without the fragment: ignored, not read. Anything else is a leak.
    const plain = await askAsRole(oracle, unpoisoned);
    if (
      answer.kind === 'data' &&
      plain.kind === 'data' &&
      canonicalData(answer.data, query) === canonicalData(plain.data, unpoisoned)
    ) {
      // A field under @skip(if: true) / @include(if: false) is dropped before it is resolved,
      // as the official engine does (graphql-engine Hasura/GraphQL/Parser/Collect.hs applies the
      // directives first), so production answers the same: never read, counted, not failing
      // (decision 018). An inline fragment on another type must be refused.
      if (query.poison?.startsWith('skipped field')) {
        tally.outcome('skipped-by-directive');
        return undefined;
      }
      finding = {
        kind: 'ignored-unlisted',
        role: query.role,
        query: printQuery(oracle, query),
        detail: `(${property}) expected a validation error for ${query.poison}; the role got ${describeAnswer(answer)}, the same as without it (skipped, not refused)`,
      };
      tally.find(finding);
      return finding;
    }
  }
  if (hasData(answer)) {
    // The admin's answer over the admitted rows shows what the extra construct told.
    const reference = await askReference(oracle, query);
    // Whether the answer also depends on rows the role may not see (the admin's over the
    // admitted rows differs): then the construct does not only pass, it reads hidden rows.
    const differs =
      answer.kind === 'data' &&
      reference.kind === 'data' &&
      canonicalData(answer.data, query) !== canonicalData(reference.data, query);
    finding = {
      kind: differs ? 'unlisted-read-hidden-rows' : 'accepted-unlisted',
      role: query.role,
      query: printQuery(oracle, query),
      detail: `(${property}) expected a validation error for ${query.poison}; the role got ${describeAnswer(answer)}; admin over the admitted rows: ${describeAnswer(reference)}`,
    };
  } else if (answer.kind === 'errors') {
    finding = {
      kind: 'wrong-refusal',
      role: query.role,
      query: printQuery(oracle, query),
      detail: `(${property}) expected a validation error for ${query.poison}; got ${describeAnswer(answer)}`,
    };
  } else {
    finding = {
      kind: 'no-answer',
      role: query.role,
      query: printQuery(oracle, query),
      detail: `(${property}) ${describeAnswer(answer)}`,
    };
  }
  tally.find(finding);
  return finding;
}

/**
 * Property (a) for one query: the role's answer equals the admin's over the rows the role
 * admits; a query with an unlisted construct is refused with a validation error.
 */
export async function checkAnswer(
  oracle: Oracle,
  query: OracleQuery,
  tally: OracleTally,
): Promise<Finding | undefined> {
  tally.count(query.poison ? 'refusal' : `answer-${query.transport}-${query.operation}`, query);
  for (const filter of queryFilters(query)) countOperators(filter, tally);
  const answer = await askAsRole(oracle, query);
  if (query.poison) return judgeRefusal(oracle, query, answer, tally, 'a');
  const reference = await askReference(oracle, query);
  if (answer.kind === 'failed' || reference.kind === 'failed') {
    const finding: Finding = {
      kind: 'no-answer',
      role: query.role,
      query: printQuery(oracle, query),
      detail: `role: ${describeAnswer(answer)}; reference: ${describeAnswer(reference)}`,
    };
    tally.find(finding);
    return finding;
  }
  if (answer.kind === 'errors' && reference.kind === 'errors') {
    tally.outcome('both-refused');
    return undefined;
  }
  if (answer.kind === 'errors') {
    tally.outcome('listed-refused');
    tally.find({
      kind: 'listed-refused',
      role: query.role,
      query: printQuery(oracle, query),
      detail: `role: ${describeAnswer(answer)}; reference: ${describeAnswer(reference)}`,
    });
    return undefined;
  }
  if (reference.kind === 'errors') {
    tally.outcome('reference-refused');
    tally.find({
      kind: 'reference-refused',
      role: query.role,
      query: printQuery(oracle, query),
      detail: `role: ${describeAnswer(answer)}; reference: ${describeAnswer(reference)}`,
    });
    return undefined;
  }
  const mine = canonicalData(answer.data, query);
  const expected = canonicalData(reference.data, query);
  if (mine === expected) {
    tally.outcome('equal');
    return undefined;
  }
  const finding: Finding = {
    kind: 'answer-differs',
    role: query.role,
    query: printQuery(oracle, query),
    detail: `the role got ${excerpt(mine, 1500)}; admin over the admitted rows: ${excerpt(expected, 1500)}`,
  };
  tally.find(finding);
  return finding;
}
