import type { Role } from '../../hostile/graphql-shots.ts';
import { canonicalData, type ArgValue, type OracleQuery, type Selection } from './query.ts';
import type { Answer } from './transport.ts';

/*
 * What the oracle finds (the kinds of finding, which fail the run and which leak data), its
 * tally, and how an answer is described and compared.
 */

export type FindingKind =
  /** (a): the role's answer differs from the admin's over the admitted rows. */
  | 'answer-differs'
  /** (b): the role's answer changed when only rows it may not see changed. */
  | 'changed-by-hidden-rows'
  /** A construct the role's schema does not list was answered with data. */
  | 'accepted-unlisted'
  /** ... and that answer differs from the admin's over the admitted rows: it read hidden rows. */
  | 'unlisted-read-hidden-rows'
  /**
   * A construct the role's schema does not list was answered as if it were not there (an inline
   * fragment on another type, a field under @skip(if: true)): never read, so not a leak, but
   * not refused either.
   */
  | 'ignored-unlisted'
  /** A construct the role's schema does not list was refused, but not as a validation error. */
  | 'wrong-refusal'
  /** No answer the oracle can judge (a transport failure, a hang, no JSON). */
  | 'no-answer'
  /** A construct the role's schema lists was refused while the admin's answer had data (reported, not a leak). */
  | 'listed-refused'
  /** The reference refused what the role was answered (reported, not a leak). */
  | 'reference-refused';

/** Findings that fail the check; the others are reported. */
export const FAILING: ReadonlySet<FindingKind> = new Set([
  'answer-differs',
  'changed-by-hidden-rows',
  'accepted-unlisted',
  'unlisted-read-hidden-rows',
  'ignored-unlisted',
  'wrong-refusal',
  'no-answer',
]);
/** Findings that are leaks (oracle_leaks). */
export const LEAKS: ReadonlySet<FindingKind> = new Set([
  'answer-differs',
  'changed-by-hidden-rows',
  'accepted-unlisted',
  'unlisted-read-hidden-rows',
]);

export interface Finding {
  kind: FindingKind;
  role: Role;
  query: string;
  detail: string;
}

export class OracleTally {
  queries = 0;
  readonly byCheck: Record<string, number> = {};
  readonly byRole: Record<string, number> = {};
  readonly rootTables: Record<string, number> = {};
  readonly operators: Record<string, number> = {};
  readonly poisons: Record<string, number> = {};
  readonly outcomes: Record<string, number> = {};
  readonly findings: Finding[] = [];
  readonly findingCounts: Partial<Record<FindingKind, number>> = {};
  mutations = { applied: 0, skippedNoRow: 0, skippedVisible: 0 };

  count(check: string, query: OracleQuery): void {
    this.queries += 1;
    this.byCheck[check] = (this.byCheck[check] ?? 0) + 1;
    this.byRole[query.role] = (this.byRole[query.role] ?? 0) + 1;
    for (const root of query.roots) {
      const key = `${query.role}:${root.table}`;
      this.rootTables[key] = (this.rootTables[key] ?? 0) + 1;
    }
    if (query.poison) {
      const kind = query.poison.split(' ')[0]!;
      this.poisons[kind] = (this.poisons[kind] ?? 0) + 1;
    }
  }

  outcome(name: string): void {
    this.outcomes[name] = (this.outcomes[name] ?? 0) + 1;
  }

  find(finding: Finding): void {
    this.findingCounts[finding.kind] = (this.findingCounts[finding.kind] ?? 0) + 1;
    // Keep a few of each kind per role: enough to describe, not a megabyte of report.
    const same = this.findings.filter(
      (item) => item.kind === finding.kind && item.role === finding.role,
    ).length;
    if (same < 5) this.findings.push(finding);
  }

  get leaks(): number {
    return [...LEAKS].reduce((sum, kind) => sum + (this.findingCounts[kind] ?? 0), 0);
  }

  get failures(): number {
    return [...FAILING].reduce((sum, kind) => sum + (this.findingCounts[kind] ?? 0), 0);
  }

  summary() {
    return {
      queries: this.queries,
      leaks: this.leaks,
      byCheck: this.byCheck,
      byRole: this.byRole,
      outcomes: this.outcomes,
      findingCounts: this.findingCounts,
      mutations: this.mutations,
      poisons: this.poisons,
      operators: this.operators,
      rootTables: this.rootTables,
      findings: this.findings,
    };
  }
}

/** Counts the comparison operators a filter uses (coverage). */
export function countOperators(value: ArgValue | undefined, tally: OracleTally): void {
  if (value === null || value === undefined || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) countOperators(item, tally);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.startsWith('_') && !['_and', '_or', '_not', '_exists'].includes(key))
      tally.operators[key] = (tally.operators[key] ?? 0) + 1;
    countOperators(item as ArgValue, tally);
  }
}

export function queryFilters(query: OracleQuery): ArgValue[] {
  const out: ArgValue[] = [];
  const visit = (fields: Selection[]) => {
    for (const field of fields) {
      if (field.kind === 'object') visit(field.fields);
      else if (field.kind === 'array') {
        if (field.args.where !== undefined) out.push(field.args.where);
        visit(field.fields);
      } else if (field.kind === 'aggregate') {
        if (field.args.where !== undefined) out.push(field.args.where);
        if (field.nodes) visit(field.nodes);
      }
    }
  };
  for (const root of query.roots) {
    if (root.kind !== 'by_pk' && root.args.where !== undefined) out.push(root.args.where);
    if (root.kind === 'aggregate') {
      if (root.nodes) visit(root.nodes);
    } else visit(root.fields);
  }
  return out;
}

export const excerpt = (value: unknown, length = 700) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text;
};

export function describeAnswer(answer: Answer): string {
  if (answer.kind === 'data') return `data ${excerpt(answer.data)}`;
  if (answer.kind === 'errors')
    return `errors [${answer.codes.join(', ')}] ${excerpt(answer.messages.join(' | '), 300)}${answer.data ? ` with data ${excerpt(answer.data)}` : ''}`;
  return `no answer: ${answer.reason}`;
}

export const isValidationRefusal = (answer: Answer) =>
  answer.kind === 'errors' &&
  (answer.data === null || answer.data === undefined) &&
  answer.codes.length > 0 &&
  answer.codes.every((code) => code === 'validation-failed');

export const hasData = (answer: Answer) =>
  answer.kind === 'data' ||
  (answer.kind === 'errors' && answer.data !== null && answer.data !== undefined);

/** An answer as a string two answers compare by (data canonical, errors by code). */
export function answerKey(answer: Answer, query: OracleQuery): string {
  if (answer.kind === 'data') return `data:${canonicalData(answer.data, query)}`;
  if (answer.kind === 'errors')
    return `errors:${answer.codes.join(',')}${answer.data ? canonicalData(answer.data, query) : ''}`;
  return `failed:${answer.reason}`;
}
