import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildGraphQLSchema } from '../schema/graphql-schema.ts';
import {
  loadSchemaModel,
  PROJECT_METADATA,
  startFixtureDatabase,
  type FixtureDatabase,
} from '../schema/graphql-schema.test-fixture.ts';
import type { SchemaModel } from '../schema/model.ts';

const ENTRY = fileURLToPath(new URL('./print-schema.ts', import.meta.url));

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let db: FixtureDatabase;
let model: SchemaModel;
const withoutDatabaseUrl = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));

beforeAll(async () => {
  db = await startFixtureDatabase();
  model = await loadSchemaModel(db.pool, PROJECT_METADATA);
});
afterAll(async () => {
  await db?.stop();
});

describe('print-schema', () => {
  it('prints the admin SDL of the project metadata by default', async () => {
    const result = await run([], { ...withoutDatabaseUrl(), DATABASE_URL: db.url });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${printSchema(buildGraphQLSchema(model.forRole('admin')))}\n`);
    expect(result.stdout).toContain('type query_root {');
  });

  it('prints another role, and says when the metadata does not name it', async () => {
    const result = await run(['--role', 'visitor'], {
      ...withoutDatabaseUrl(),
      DATABASE_URL: db.url,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${printSchema(buildGraphQLSchema(model.forRole('visitor')))}\n`);
    expect(result.stderr).toMatch(/role "visitor"/);
  });

  it('refuses to run without DATABASE_URL or with an unknown option', async () => {
    const noUrl = await run([], withoutDatabaseUrl());
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toMatch(/DATABASE_URL/);
    const badOption = await run(['--colour'], { ...withoutDatabaseUrl(), DATABASE_URL: db.url });
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toMatch(/usage: print-schema/);
  });
});
