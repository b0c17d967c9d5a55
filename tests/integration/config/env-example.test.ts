import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';
import type * as z from 'zod';

import { AuthEnv } from '../../../auth-service/src/env.ts';
import { BotEnv } from '../../../bot/src/env.ts';
import { ActionsEnv } from '../../../hasura/actions/src/env.ts';
import { EngineEnv } from '../../../hasura/engine/src/env.ts';
import { LauncherEnv } from '../../../scripts/launcher/env.ts';
import { SupervisorEnv } from '../../../scripts/launcher/supervisor.ts';
import { WatchersEnv } from '../../../watchers/src/env.ts';
import { WebEnv } from '../../../web/server/env.ts';

/*
 * .env.example is the one list of what the product reads (README, Configuration): every
 * variable of every service's zod schema, the ones the Hasura metadata takes from the
 * environment, and the ones docker-compose.yml interpolates, each exactly once.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const SCHEMAS: Record<string, z.ZodType> = {
  'scripts/launcher/env.ts': LauncherEnv,
  'scripts/launcher/supervisor.ts': SupervisorEnv,
  'auth-service/src/env.ts': AuthEnv,
  'hasura/engine/src/env.ts': EngineEnv,
  'hasura/actions/src/env.ts': ActionsEnv,
  'bot/src/env.ts': BotEnv,
  'web/server/env.ts': WebEnv,
  'watchers/src/env.ts': WatchersEnv,
};

/** Listed for the test suites (tests/support/databases.ts), read by no service. */
const TEST_ONLY = ['TEST_POSTGRES_URL', 'REQUIRE_POSTGRES'];

/** The variables a schema reads: its object's keys, through refinements and pipes. */
function variablesOf(schema: z.ZodType): string[] {
  const { def } = schema as unknown as { def: { type: string; in?: z.ZodType } };
  if ('shape' in schema) return Object.keys((schema as z.ZodObject).shape);
  if (def.type === 'pipe' && def.in) return variablesOf(def.in);
  throw new Error(`cannot list the variables of a ${def.type} schema`);
}

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder)).flatMap((name) => {
    const file = path.join(folder, name);
    return statSync(path.join(root, file)).isDirectory() ? filesUnder(file) : [file];
  });
}

/** `{{NAME}}` in URLs and `*_from_env: NAME`, which the engine resolves from its environment. */
const metadataVariables = () =>
  filesUnder('hasura/metadata').flatMap((file) =>
    [...read(file).matchAll(/\{\{([A-Z0-9_]+)\}\}|_from_env:\s*([A-Z0-9_]+)/g)].map(
      (match) => match[1] ?? match[2]!,
    ),
  );

/** `${NAME}`, `${NAME:?…}`, `${NAME:-…}` in docker-compose.yml, filled from .env. */
const composeVariables = () =>
  [...read('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!);

/** The names .env.example assigns, in order, repeats included. */
const listed = read('.env.example')
  .split('\n')
  .flatMap((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1] ?? []);

/** Every variable and who reads it. */
function readers(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  const add = (name: string, reader: string) => {
    const known = byName.get(name) ?? [];
    if (!known.includes(reader)) byName.set(name, [...known, reader]);
  };
  for (const [file, schema] of Object.entries(SCHEMAS)) {
    for (const name of variablesOf(schema)) add(name, file);
  }
  for (const name of metadataVariables()) add(name, 'hasura/metadata');
  for (const name of composeVariables()) add(name, 'docker-compose.yml');
  for (const name of TEST_ONLY) add(name, 'tests');
  return byName;
}

describe('.env.example', () => {
  it('lists every variable a service reads', () => {
    const missing = [...readers()]
      .filter(([name]) => !listed.includes(name))
      .map(([name, by]) => `${name} (read by ${by.join(', ')})`);
    expect(missing, 'add these to .env.example, each with a comment').toEqual([]);
  });

  it('lists each variable once', () => {
    const repeated = listed.filter((name, index) => listed.indexOf(name) !== index);
    expect(repeated, 'listed more than once in .env.example').toEqual([]);
  });

  it('lists only variables something reads', () => {
    const known = readers();
    const stale = listed.filter((name) => !known.has(name));
    expect(stale, 'in .env.example but read by no schema, metadata or compose file').toEqual([]);
  });

  it('reads every schema it checks', () => {
    // A schema this test could not see into would make the checks above pass vacuously.
    for (const schema of Object.values(SCHEMAS)) expect(variablesOf(schema)).not.toEqual([]);
    expect(variablesOf(AuthEnv)).toContain('AUTH_CODE_PEPPER');
    expect(metadataVariables()).toContain('ACTIONS_SECRET');
    expect(composeVariables()).toContain('POSTGRES_PASSWORD');
  });
});
