import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';

import type { DatabaseTarget } from '../../../support/databases.ts';
import { TEST_ADMIN_SECRET } from '../../../support/engine.ts';
import { startHostileStack, type HostileStack } from '../../hostile/engine-stack.ts';
import { ROLES, type Role } from '../../hostile/graphql-shots.ts';
import { buildGenerator, type Generator, type Pools } from './generate.ts';
import { tablesWithHiddenRows, visibleSnapshot } from './hidden.ts';
import {
  loadCatalog,
  loadTableMetadata,
  seesEveryRow,
  type PermissionContext,
  type TableCatalog,
  type TableMeta,
} from './metadata.ts';
import type { PoisonContext } from './poison.ts';
import { loadPools } from './pools.ts';
import { render, type OracleQuery } from './query.ts';
import { startReferenceEngine, type ReferenceEngine } from './restricted.ts';
import { roleModel, type RoleModel } from './schema-model.ts';
import { freezeTables, seedOracleData, type OracleIds } from './seed.ts';
import { postGraphql, WsClients, type Answer } from './transport.ts';
import { describeAnswer } from './oracle-findings.ts';

/*
 * The oracle's engines: the one under test, asked as a role, and the reference it is compared
 * with, started against one database.
 */

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
export function askAsRole(oracle: Oracle, query: OracleQuery): Promise<Answer> {
  const request = render(query, oracle.generators.get(query.role)!.model.argTypes);
  return query.transport === 'http'
    ? postGraphql(oracle.hostile.stack.engineUrl, oracle.hostile.credentials(query.role), request)
    : oracle.ws.once(query.role, request);
}

/** The admin's answer over the rows the role admits (always over HTTP, as a query). */
export function askReference(oracle: Oracle, query: OracleQuery): Promise<Answer> {
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
