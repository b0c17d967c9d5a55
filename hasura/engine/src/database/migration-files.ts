import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** One migration folder, `<version>_<name>/{up.sql,down.sql}`, as the Hasura CLI writes it. */
export interface MigrationFile {
  /** Digits only; a bigint, so kept as a string and compared with BigInt. */
  version: string;
  name: string;
  upSql: string;
  /** Absent when the folder has no down.sql: such a migration cannot be rolled back. */
  downSql: string | undefined;
}

const FOLDER_PATTERN = /^(\d{1,18})_([A-Za-z0-9_-]+)$/;

export class MigrationFilesError extends Error {
  override name = 'MigrationFilesError';
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads every migration folder under `dir`, ordered by version. */
export async function loadMigrationFiles(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir);
  const migrations: MigrationFile[] = [];
  for (const entry of entries) {
    const folder = path.join(dir, entry);
    if (!(await stat(folder)).isDirectory()) continue;
    const match = FOLDER_PATTERN.exec(entry);
    if (!match) throw new MigrationFilesError(`${folder}: not a <version>_<name> migration folder`);
    const upSql = await readOptional(path.join(folder, 'up.sql'));
    if (upSql === undefined) throw new MigrationFilesError(`${folder}: up.sql is missing`);
    migrations.push({
      // Normalised, so `005_x` and `5_y` are seen as the same version.
      version: BigInt(match[1]!).toString(),
      name: match[2]!,
      upSql,
      downSql: await readOptional(path.join(folder, 'down.sql')),
    });
  }
  migrations.sort((a, b) => compareVersions(a.version, b.version));
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version === migrations[i - 1]!.version) {
      throw new MigrationFilesError(`two migrations share version ${migrations[i]!.version}`);
    }
  }
  return migrations;
}

export function compareVersions(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}
