import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';

import type { DatabaseTarget } from '../../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../../support/engine.ts';
import { startHostileStack, type HostileStack } from '../../hostile/engine-stack.ts';
import { ROLES, type Role } from '../../hostile/graphql-shots.ts';

import { buildGenerator, type Generator, type Pools } from './generate.ts';
import {
  applyHiddenMutation,
  filterTargets,
  tablesWithHiddenRows,
  visibleSnapshot,
  type AppliedMutation,
  type MutationRecipe,
} from './hidden.ts';
import {
  loadCatalog,
  loadTableMetadata,
  seesEveryRow,
  type PermissionContext,
  type TableCatalog,
  type TableMeta,
} from './metadata.ts';
import { poisonQuery, type PoisonContext } from './poison.ts';
import { loadPools } from './pools.ts';
import {
  canonicalData,
  render,
  withPrint,
  type ArgValue,
  type OracleQuery,
  type Selection,
} from './query.ts';
import { startReferenceEngine, type ReferenceEngine } from './restricted.ts';
import { roleModel, type RoleModel } from './schema-model.ts';
import { freezeTables, seedOracleData, type OracleIds } from './seed.ts';
import { postGraphql, WsClients, type Answer } from './transport.ts';

/*
 * The oracle's world for one database: the product stack (tests/reliability/hostile/
 * engine-stack.ts) with the oracle's rows, a reference engine per role (restricted.ts), each
 * role's schema as a model and a generator, and the checks of both properties, which count
 * what they did and keep every finding.
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
function countOperators(value: ArgValue | undefined, tally: OracleTally): void {
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

function queryFilters(query: OracleQuery): ArgValue[] {
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

const excerpt = (value: unknown, length = 700) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text;
};

function describeAnswer(answer: Answer): string {
  if (answer.kind === 'data') return `data ${excerpt(answer.data)}`;
  if (answer.kind === 'errors')
    return `errors [${answer.codes.join(', ')}] ${excerpt(answer.messages.join(' | '), 300)}${answer.data ? ` with data ${excerpt(answer.data)}` : ''}`;
  return `no answer: ${answer.reason}`;
}

const isValidationRefusal = (answer: Answer) =>
  answer.kind === 'errors' &&
  (answer.data === null || answer.data === undefined) &&
  answer.codes.length > 0 &&
  answer.codes.every((code) => code === 'validation-failed');

const hasData = (answer: Answer) =>
  answer.kind === 'data' ||
  (answer.kind === 'errors' && answer.data !== null && answer.data !== undefined);

/** An answer as a string two answers compare by (data canonical, errors by code). */
function answerKey(answer: Answer, query: OracleQuery): string {
  if (answer.kind === 'data') return `data:${canonicalData(answer.data, query)}`;
  if (answer.kind === 'errors')
    return `errors:${answer.codes.join(',')}${answer.data ? canonicalData(answer.data, query) : ''}`;
  return `failed:${answer.reason}`;
}

export interface Oracle {
  target: DatabaseTarget;
  hostile: HostileStack;
  ids: OracleIds;
  tables: Map<string, TableMeta>;
  catalog: Map<string, TableCatalog>;
  adminModel: RoleModel;
  pools: Pools;
  generators: Map<Role, Generator>;
  poisonContexts: Map<Role, PoisonContext>;
  permissionContexts: Map<Role, PermissionContext>;
  references: Map<Role, ReferenceEngine>;
  /** What each role may read, before any change (property b compares against it). */
  baselines: Map<Role, string>;
  /** Per role, the tables with rows it may not see (property b changes those). */
  hiddenTables: Map<Role, string[]>;
  /** Seconds each step of the setup took. */
  setupSteps: Record<string, number>;
  ws: WsClients;
  /** Roles that have rows they may not see (property b needs one). */
  rolesWithHiddenRows: Role[];
  setupSeconds: number;
  close(): Promise<void>;
}

/**
 * The session variables the engine resolves for a role's requests: the JWT's Hasura claims
 * (strings) and the requested role, read from the very headers the requests carry.
 */
function sessionOf(headers: Record<string, string>): Record<string, string> {
  const session: Record<string, string> = {};
  const token = headers['authorization']?.replace(/^Bearer\s+/i, '');
  if (token) {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const claims = (payload['https://hasura.io/jwt/claims'] ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(claims))
      if (typeof value === 'string') session[name.toLowerCase()] = value;
  }
  if (headers['x-hasura-role']) session['x-hasura-role'] = headers['x-hasura-role'];
  return session;
}

async function introspectAdmin(engineUrl: string): Promise<RoleModel> {
  const response = await fetch(`${engineUrl}/v1/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hasura-admin-secret': TEST_ADMIN_SECRET },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const body = (await response.json()) as { data: IntrospectionQuery };
  return roleModel(buildClientSchema(body.data));
}

export async function startOracle(target: DatabaseTarget): Promise<Oracle> {
  const started = Date.now();
  const steps: Record<string, number> = {};
  let mark = started;
  const step = (name: string) => {
    const now = Date.now();
    steps[name] = (steps[name] ?? 0) + (now - mark) / 1000;
    mark = now;
  };
  const hostile = await startHostileStack(target);
  step('stack');
  const references = new Map<Role, ReferenceEngine>();
  let ws: WsClients | undefined;
  try {
    const ids = await seedOracleData(hostile.db.pool, hostile.ids);
    step('seed');
    const tables = loadTableMetadata();
    const catalog = await loadCatalog(hostile.db.pool);
    await freezeTables(
      hostile.db.pool,
      [...tables.keys()].filter((name) => !catalog.get(name)?.isView),
    );
    const engineUrl = hostile.stack.engineUrl;
    const adminModel = await introspectAdmin(engineUrl);
    const adminGraphql = async (query: string) => {
      const answer = await postGraphql(
        engineUrl,
        { 'x-hasura-admin-secret': TEST_ADMIN_SECRET },
        { query, variables: {} },
      );
      if (answer.kind !== 'data') throw new Error(`admin query failed: ${describeAnswer(answer)}`);
      return answer.data as Record<string, unknown>;
    };
    const pools = await loadPools(adminModel, adminGraphql);
    step('pools');
    const primaryKeys = new Map(
      [...catalog.values()].map((table) => [table.name, table.primaryKey] as const),
    );
    const computedFields = new Set(
      [...tables.values()].flatMap((table) =>
        table.computedFields.map((field) => `${table.name}.${field.name}`),
      ),
    );
    const generators = new Map<Role, Generator>();
    const poisonContexts = new Map<Role, PoisonContext>();
    const permissionContexts = new Map<Role, PermissionContext>();
    const baselines = new Map<Role, string>();
    const hiddenTables = new Map<Role, string[]>();
    for (const role of ROLES) {
      const model = roleModel(hostile.context.schemas[role]);
      const generator = buildGenerator(role, model, pools, primaryKeys, computedFields, [
        'http',
        'ws',
      ]);
      generators.set(role, generator);
      poisonContexts.set(role, { role: model, admin: adminModel, generator, pools, catalog });
      const session = sessionOf(hostile.credentials(role));
      const ctx: PermissionContext = { tables, catalog, session };
      permissionContexts.set(role, ctx);
      baselines.set(role, await visibleSnapshot(hostile.db.pool, ctx, role));
      hiddenTables.set(role, await tablesWithHiddenRows(hostile.db.pool, ctx, role));
      step('models');
      references.set(
        role,
        seesEveryRow(tables, role)
          ? { url: engineUrl, db: undefined, close: async () => {} }
          : await startReferenceEngine(target, hostile.db.pool, ctx, role),
      );
      step('references');
    }
    ws = new WsClients(engineUrl, (role) => hostile.credentials(role as Role));
    const wsClients = ws;
    return {
      target,
      hostile,
      ids,
      tables,
      catalog,
      adminModel,
      pools,
      generators,
      poisonContexts,
      permissionContexts,
      references,
      baselines,
      hiddenTables,
      setupSteps: steps,
      ws,
      rolesWithHiddenRows: ROLES.filter((role) => hiddenTables.get(role)!.length > 0),
      setupSeconds: (Date.now() - started) / 1000,
      async close() {
        await wsClients.close();
        for (const reference of references.values()) await reference.close();
        await hostile.close();
      },
    };
  } catch (error) {
    await ws?.close().catch(() => {});
    for (const reference of references.values()) await reference.close().catch(() => {});
    await hostile.close().catch(() => {});
    throw error;
  }
}

/** The role's answer to a query, over the query's transport. */
function askAsRole(oracle: Oracle, query: OracleQuery): Promise<Answer> {
  const request = render(query, oracle.generators.get(query.role)!.model.argTypes);
  return query.transport === 'http'
    ? postGraphql(oracle.hostile.stack.engineUrl, oracle.hostile.credentials(query.role), request)
    : oracle.ws.once(query.role, request);
}

/** The admin's answer over the rows the role admits (always over HTTP, as a query). */
function askReference(oracle: Oracle, query: OracleQuery): Promise<Answer> {
  const asQuery: OracleQuery = { ...query, operation: 'query' };
  return postGraphql(
    oracle.references.get(query.role)!.url,
    { 'x-hasura-admin-secret': TEST_ADMIN_SECRET },
    render(asQuery, oracle.adminModel.argTypes),
  );
}

export function printQuery(oracle: Oracle, query: OracleQuery): string {
  const request = render(query, oracle.generators.get(query.role)!.model.argTypes);
  return `${query.operation} as ${query.role} over ${query.transport}${query.poison ? ` [unlisted: ${query.poison}]` : ''}: ${request.query}${Object.keys(request.variables).length > 0 ? ` variables ${JSON.stringify(request.variables)}` : ''}`;
}

/** Whether a refusal check passed; records the finding when not. */
async function judgeRefusal(
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

export { poisonQuery, withPrint };
