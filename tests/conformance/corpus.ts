import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import YAML from 'yaml';

/*
 * Loading the corpus: group.yaml, setup/seed/reset SQL, metadata.yaml and the case files, and
 * telling the case shapes apart (plain requests, event steps, websocket steps and scenarios,
 * the live-query driver).
 */

export type Transport = 'http' | 'websocket' | 'subscription';
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface GraphQLBody {
  query: string;
  variables?: JsonObject | null;
  operationName?: string | null;
}

export interface PreRequest {
  url: string;
  query: GraphQLBody;
  headers?: Record<string, unknown>;
  expect_status?: number;
}

export interface CaseEntry {
  file: string;
  transports: Transport[];
  tags?: string[];
  send_admin_secret?: boolean;
  pre_requests?: PreRequest[];
  note?: string;
}

export interface GroupServer {
  stringify_numeric_types?: boolean;
  admin_secret?: string | null;
  jwt?: unknown;
  unauthorized_role?: string | null;
  env?: Record<string, string>;
}

export interface GroupFile {
  group: string;
  title?: string;
  isolation: 'per_group' | 'per_case';
  server?: GroupServer;
  cases: CaseEntry[];
}

export interface JwtSpec {
  claims: JsonObject;
  sign: 'server_key' | 'other_key';
  /** Unset: `Authorization: Bearer`; `cookie:NAME`; `connection_init_payload_headers`. */
  deliver?: string;
}

/** One HTTP/WS request of a case file, in Hasura's own test format. */
export interface RequestSpec {
  description?: string;
  url: string;
  status?: number;
  headers?: Record<string, unknown>;
  query: GraphQLBody | GraphQLBody[];
  response?: Json;
  allowed_responses?: { response: Json }[];
  jwt?: JwtSpec;
  server_jwt_config?: JsonObject;
}

export interface EventExpectation {
  trigger: string;
  table: { schema: string; name: string };
  op: string;
  data: Json;
  session_variables: JsonObject;
  webhook_path: string;
  current_retry: number;
  headers?: Record<string, string>;
  within_seconds?: number;
}

export interface EventStep {
  request?: { url: string; query: GraphQLBody; headers?: Record<string, unknown> };
  wait_seconds?: number;
  expect_events?: EventExpectation[];
  expect_no_event_within_seconds?: number;
}

export interface EventsCase {
  description?: string;
  server_env?: Record<string, string>;
  steps: EventStep[];
}

/** A step of a websocket scenario (subscriptions protocol cases, the JWT-expiry case). */
export interface WsStep {
  send?: JsonObject;
  expect?: JsonObject;
  expect_connection_closed?: boolean;
  close_code?: number;
  expect_no_message_within_seconds?: number;
  wait_seconds?: number;
}

export interface WsScenario {
  name: string;
  requires?: string;
  steps: WsStep[];
}

export interface WsScenariosCase {
  description?: string;
  subprotocol?: string;
  scenarios: WsScenario[];
}

export interface WsStepsCase {
  description?: string;
  jwt?: JwtSpec;
  subprotocol?: string;
  steps: WsStep[];
}

export interface LiveSubscription {
  id: string;
  query: string;
  variables?: JsonObject;
  first_data: JsonObject;
}

export interface LiveQueryStep {
  description?: string;
  name: string;
  query: string;
  variables: string | JsonObject | null;
  response: string;
  live_response?: string;
}

export interface LiveQueriesCase {
  description?: string;
  connection_init?: { payload?: JsonObject };
  subscriptions: LiveSubscription[];
  steps_file: string;
  steps: LiveQueryStep[];
}

export type CaseBody =
  | { kind: 'requests'; requests: RequestSpec[] }
  | { kind: 'events'; spec: EventsCase }
  | { kind: 'ws-steps'; spec: WsStepsCase }
  | { kind: 'ws-scenarios'; spec: WsScenariosCase }
  | { kind: 'live-queries'; spec: LiveQueriesCase }
  | { kind: 'unknown'; reason: string };

export interface LoadedCase {
  group: string;
  /** As group.yaml names it: `cases/x.yaml`. */
  file: string;
  entry: CaseEntry;
  body: CaseBody;
}

export interface LoadedGroup {
  name: string;
  dir: string;
  meta: GroupFile;
  /** metadata.yaml as an object (export_metadata shape). */
  metadata: unknown;
  setupSql: string;
  seedSql?: string;
  resetSql?: string;
  cases: LoadedCase[];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readOptional(file: string): Promise<string | undefined> {
  return existsSync(file) ? readFile(file, 'utf8') : undefined;
}

export function listGroupsOnDisk(corpusDir: string): string[] {
  const groupsDir = path.join(corpusDir, 'groups');
  return readdirSync(groupsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function hasStepKey(steps: unknown[], keys: string[]): boolean {
  return steps.some((step) => isObject(step) && keys.some((key) => key in step));
}

/** Tells the shape of a parsed case file; `groupDir` resolves a live-query `steps_file`. */
export async function classifyCase(doc: unknown, groupDir: string): Promise<CaseBody> {
  if (Array.isArray(doc)) {
    if (doc.every((element) => isObject(element) && 'query' in element)) {
      return { kind: 'requests', requests: doc as RequestSpec[] };
    }
    return { kind: 'unknown', reason: 'a list whose elements are not all requests' };
  }
  if (!isObject(doc)) return { kind: 'unknown', reason: 'neither a mapping nor a list' };
  if (Array.isArray(doc['scenarios'])) {
    return { kind: 'ws-scenarios', spec: doc as unknown as WsScenariosCase };
  }
  if (Array.isArray(doc['subscriptions']) && typeof doc['steps_file'] === 'string') {
    const stepsPath = path.join(groupDir, doc['steps_file']);
    const steps: unknown = YAML.parse(await readFile(stepsPath, 'utf8'));
    if (!Array.isArray(steps))
      return { kind: 'unknown', reason: `${doc['steps_file']} is not a list` };
    return {
      kind: 'live-queries',
      spec: {
        ...(doc as unknown as Omit<LiveQueriesCase, 'steps'>),
        steps: steps as LiveQueryStep[],
      },
    };
  }
  if (Array.isArray(doc['steps'])) {
    const steps = doc['steps'] as unknown[];
    if (hasStepKey(steps, ['request', 'expect_events', 'expect_no_event_within_seconds'])) {
      return { kind: 'events', spec: doc as unknown as EventsCase };
    }
    if (hasStepKey(steps, ['send', 'expect', 'expect_connection_closed'])) {
      return { kind: 'ws-steps', spec: doc as unknown as WsStepsCase };
    }
    return { kind: 'unknown', reason: 'steps of an unknown kind' };
  }
  if ('query' in doc) return { kind: 'requests', requests: [doc as unknown as RequestSpec] };
  return { kind: 'unknown', reason: 'no query, steps, scenarios or subscriptions' };
}

export async function loadGroup(corpusDir: string, name: string): Promise<LoadedGroup> {
  const dir = path.join(corpusDir, 'groups', name);
  const meta = YAML.parse(await readFile(path.join(dir, 'group.yaml'), 'utf8')) as GroupFile;
  const metadata: unknown = YAML.parse(await readFile(path.join(dir, 'metadata.yaml'), 'utf8'));
  const cases: LoadedCase[] = [];
  for (const entry of meta.cases) {
    let body: CaseBody;
    try {
      const doc: unknown = YAML.parse(await readFile(path.join(dir, entry.file), 'utf8'));
      body = await classifyCase(doc, dir);
    } catch (error) {
      body = { kind: 'unknown', reason: `cannot read: ${(error as Error).message}` };
    }
    cases.push({ group: name, file: entry.file, entry, body });
  }
  const seedSql = await readOptional(path.join(dir, 'seed.sql'));
  const resetSql = await readOptional(path.join(dir, 'reset.sql'));
  return {
    name,
    dir,
    meta,
    metadata,
    setupSql: await readFile(path.join(dir, 'setup.sql'), 'utf8'),
    ...(seedSql === undefined ? {} : { seedSql }),
    ...(resetSql === undefined ? {} : { resetSql }),
    cases,
  };
}

/** The tables metadata.yaml tracks, as `"schema"."name"` (what per-case truncation empties). */
export function trackedTables(metadata: unknown): string[] {
  const tables: string[] = [];
  if (!isObject(metadata) || !Array.isArray(metadata['sources'])) return tables;
  for (const source of metadata['sources'] as unknown[]) {
    if (!isObject(source) || !Array.isArray(source['tables'])) continue;
    for (const entry of source['tables'] as unknown[]) {
      if (!isObject(entry) || !isObject(entry['table'])) continue;
      const { name, schema } = entry['table'];
      if (typeof name !== 'string') continue;
      const schemaName = typeof schema === 'string' ? schema : 'public';
      tables.push(`"${schemaName.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`);
    }
  }
  return tables;
}

/** Whether setup.sql inserts fixed rows (then truncation cannot stand in for a reset). */
export function setupInsertsRows(setupSql: string): boolean {
  return /^\s*insert\s+into\b/im.test(setupSql);
}

/** Normalises a `--case` argument (`x`, `x.yaml`, `cases/x.yaml`) to group.yaml's form. */
export function caseFileName(arg: string): string {
  const base = arg.replace(/^.*\//, '');
  return `cases/${base.endsWith('.yaml') ? base : `${base}.yaml`}`;
}
