import { existsSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { defaultCorpusDir, groups as groupConfigs } from './config.ts';
import {
  caseFileName,
  classifyCase,
  listGroupsOnDisk,
  loadGroup,
  setupInsertsRows,
  trackedTables,
  type LoadedGroup,
} from './corpus.ts';
import { generateJwtKeys, type JwtKeys } from './jwt.ts';
import { caseServer } from './server-settings.ts';

describe('classifyCase', () => {
  it('tells the case shapes apart', async () => {
    expect((await classifyCase({ url: '/v1/graphql', query: { query: '{a}' } }, '.')).kind).toBe(
      'requests',
    );
    expect(
      (await classifyCase([{ query: { query: '{a}' } }, { query: { query: '{b}' } }], '.')).kind,
    ).toBe('requests');
    expect((await classifyCase({ steps: [{ request: {}, expect_events: [] }] }, '.')).kind).toBe(
      'events',
    );
    expect((await classifyCase({ steps: [{ send: {} }, { expect: {} }] }, '.')).kind).toBe(
      'ws-steps',
    );
    expect((await classifyCase({ scenarios: [] }, '.')).kind).toBe('ws-scenarios');
    expect((await classifyCase({ description: 'x' }, '.')).kind).toBe('unknown');
  });
});

describe('corpus helpers', () => {
  it('lists tracked tables and spots fixed rows', () => {
    const metadata = {
      sources: [
        {
          tables: [
            { table: { name: 'test_t1', schema: 'hge_tests' } },
            { table: { name: 'user' } },
          ],
        },
      ],
    };
    expect(trackedTables(metadata)).toEqual(['"hge_tests"."test_t1"', '"public"."user"']);
    expect(
      setupInsertsRows('-- v1 "insert" calls translated to INSERT.\ncreate table t(c int);'),
    ).toBe(false);
    expect(setupInsertsRows('create table t(c int);\nINSERT INTO t VALUES (1);')).toBe(true);
  });

  it('normalises --case arguments', () => {
    expect(caseFileName('x')).toBe('cases/x.yaml');
    expect(caseFileName('cases/x.yaml')).toBe('cases/x.yaml');
    expect(caseFileName('x.yaml')).toBe('cases/x.yaml');
  });
});

describe.skipIf(!existsSync(defaultCorpusDir))('the corpus and config.ts', () => {
  const loaded = new Map<string, LoadedGroup>();
  let keys: JwtKeys;

  beforeAll(async () => {
    keys = generateJwtKeys();
    for (const name of listGroupsOnDisk(defaultCorpusDir))
      loaded.set(name, await loadGroup(defaultCorpusDir, name));
  });

  it('lists every group, and nothing else', () => {
    expect(Object.keys(groupConfigs).sort()).toEqual(listGroupsOnDisk(defaultCorpusDir));
  });

  it('holds 253 case files, every one of a known shape', () => {
    const cases = [...loaded.values()].flatMap((group) => group.cases);
    expect(cases).toHaveLength(253);
    expect(
      cases.filter((testCase) => testCase.body.kind === 'unknown').map((testCase) => testCase.file),
    ).toEqual([]);
  });

  it('names only existing cases in skips and overrides, each with a reason', () => {
    for (const [name, config] of Object.entries(groupConfigs)) {
      const files = new Set(loaded.get(name)?.cases.map((testCase) => testCase.file));
      for (const [file, reason] of Object.entries(config.skipCases ?? {})) {
        expect(files.has(file), `${name}/${file}`).toBe(true);
        expect(reason.length).toBeGreaterThan(20);
      }
      for (const [file, override] of Object.entries(config.caseServer ?? {})) {
        expect(files.has(file), `${name}/${file}`).toBe(true);
        expect(override.reason.length).toBeGreaterThan(10);
      }
    }
  });

  it('derives a server configuration for every case', () => {
    const secrets = { adminSecret: 'sec', jwtKeys: keys, withoutAdminSecret: false };
    for (const group of loaded.values()) {
      for (const testCase of group.cases) {
        expect(() =>
          caseServer(group, testCase, groupConfigs[group.name] ?? {}, secrets),
        ).not.toThrow();
      }
    }
  });

  it('configures auth the way each group says', () => {
    const secrets = { adminSecret: 'sec', jwtKeys: keys, withoutAdminSecret: false };
    const server = (group: string, file: string) => {
      const loadedGroup = loaded.get(group) as LoadedGroup;
      const testCase = loadedGroup.cases.find((candidate) => candidate.file === file);
      if (!testCase) throw new Error(`${group}/${file} not found`);
      return caseServer(loadedGroup, testCase, groupConfigs[group] ?? {}, secrets);
    };
    const basic = server('query_basic', 'cases/select_query_author.yaml');
    expect(basic.sendAdminSecret).toBe(true);
    expect(basic.settings).toMatchObject({
      adminSecret: 'sec',
      jwtSecret: undefined,
      stringifyNumericTypes: true,
    });
    expect(basic.settings.environment).toEqual({
      EVENT_WEBHOOK_HANDLER: 'http://localhost:5592',
      ACTION_WEBHOOK_HANDLER: 'http://localhost:5593',
      EVENT_WEBHOOK_HEADER: 'MyEnvValue',
    });

    const cookie = server('auth_jwt', 'cases/jwt_valid_claims_cookie.yaml');
    expect(cookie.sendAdminSecret).toBe(false);
    expect(JSON.parse(cookie.settings.jwtSecret ?? '{}')).toMatchObject({
      type: 'RS512',
      header: { type: 'Cookie', name: 'hasura_user' },
    });

    const admin = server('auth_admin_secret', 'cases/admin_secret_missing.yaml');
    expect([admin.sendAdminSecret, admin.settings.adminSecret]).toEqual([false, 'sec']);

    const anonymous = server('unauthorized_role', 'cases/unauthorized_role.yaml');
    expect([
      anonymous.sendAdminSecret,
      anonymous.settings.unauthorizedRole,
      anonymous.settings.jwtSecret,
    ]).toEqual([false, 'anonymous', undefined]);
    const jwtOnly = server(
      'unauthorized_role',
      'cases/cookie_header_absent_unauth_role_not_set.yaml',
    );
    expect(jwtOnly.settings.unauthorizedRole).toBeUndefined();
    expect(jwtOnly.settings.jwtSecret).toMatch(/RS512/);

    const backendOnly = server(
      'mutation_insert_permissions',
      'cases/backend_user_insert_pass.yaml',
    );
    expect(backendOnly.sendAdminSecret).toBe(true);

    const noSecret = caseServer(
      loaded.get('query_basic') as LoadedGroup,
      (loaded.get('query_basic') as LoadedGroup).cases[0]!,
      {},
      { ...secrets, withoutAdminSecret: true },
    );
    expect(noSecret.settings.adminSecret).toBeUndefined();
  });
});
