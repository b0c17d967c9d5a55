import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

import { compareVersions, type MigrationFile } from '@app/engine/database';

import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BACKUP_SCHEMAS,
  type BackupHeader,
  type TableCount,
} from './backup.ts';
import { RestoreError } from './restore-errors.ts';

/* Reading a backup file: its lines, one at a time, and its header. */

/** A line longer than this is not a backup line: the file is damaged. */
const MAX_LINE_CHARS = 256 * 1024 * 1024;

/** The lines of a gzip'd file, one at a time, with the line number of the last one read. */
export class BackupReader {
  line = 0;
  private readonly lines: AsyncGenerator<string, void, undefined>;
  private close: () => void = () => {};

  constructor(readonly file: string) {
    this.lines = this.read();
  }

  private async *read(): AsyncGenerator<string, void, undefined> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch (error) {
      throw new RestoreError(`cannot read ${this.file}: ${(error as Error).message}`);
    }
    const source = handle.createReadStream();
    const gunzip = createGunzip();
    source.on('error', (error) => gunzip.destroy(error));
    this.close = () => {
      source.destroy();
      gunzip.destroy();
    };
    source.pipe(gunzip);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        // Only the new text can hold a line end: a long line is not scanned again and again.
        const scanned = rest.length;
        rest += decoder.write(chunk);
        let start = 0;
        for (let end = rest.indexOf('\n', scanned); end !== -1; end = rest.indexOf('\n', start)) {
          yield rest.slice(start, end);
          start = end + 1;
        }
        rest = rest.slice(start);
        if (rest.length > MAX_LINE_CHARS) throw new RestoreError('a line is implausibly long');
      }
    } catch (error) {
      if (error instanceof RestoreError) throw this.damaged(error.message);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'Z_DATA_ERROR' && this.line === 0) {
        throw new RestoreError(
          `${this.file} is not a gzip'd backup file (${(error as Error).message})`,
        );
      }
      throw this.damaged((error as Error).message);
    } finally {
      this.close();
    }
    rest += decoder.end();
    if (rest.length > 0) throw this.damaged('it ends in the middle of a line');
  }

  damaged(reason: string): RestoreError {
    return new RestoreError(
      `${this.file} is damaged or truncated (after line ${this.line}: ${reason})`,
    );
  }

  /** The next line, or undefined at the end of the file. */
  async next(): Promise<string | undefined> {
    const result = await this.lines.next();
    if (result.done) return undefined;
    this.line += 1;
    return result.value;
  }

  /** The next line, which must exist. */
  async expect(what: string): Promise<string> {
    const line = await this.next();
    if (line === undefined) throw this.damaged(`the file ends where ${what} was expected`);
    return line;
  }

  /** The next line as a JSON object (control lines only: their numbers are small counts). */
  async expectObject(what: string): Promise<Record<string, unknown>> {
    const line = await this.expect(what);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw this.invalid(`${what} is not valid JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.invalid(`${what} is not a JSON object`);
    }
    return value as Record<string, unknown>;
  }

  invalid(reason: string): RestoreError {
    return new RestoreError(`${this.file} line ${this.line}: ${reason}; not a valid backup`);
  }

  async dispose(): Promise<void> {
    this.close();
    await this.lines.return(undefined).catch(() => {});
  }
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isVersion = (value: string) => /^\d{1,18}$/.test(value);

export async function readHeader(reader: BackupReader): Promise<BackupHeader> {
  const header = await reader.expectObject('the header');
  if (header['format'] !== BACKUP_FORMAT) {
    throw reader.invalid(`the header does not name the format ${JSON.stringify(BACKUP_FORMAT)}`);
  }
  const formatVersion = header['formatVersion'];
  if (!isCount(formatVersion) || formatVersion < 1) throw reader.invalid('no formatVersion');
  if (formatVersion > BACKUP_FORMAT_VERSION) {
    throw new RestoreError(
      `the backup uses format version ${formatVersion}, newer than this checkout reads ` +
        `(${BACKUP_FORMAT_VERSION}); update the checkout`,
    );
  }
  const { migrations, dirtyMigrations, tables, createdAt, serverVersion } = header;
  if (!isStringArray(migrations) || !migrations.every(isVersion)) {
    throw reader.invalid('the header has no valid list of migrations');
  }
  if (!isStringArray(dirtyMigrations)) throw reader.invalid('the header has no dirtyMigrations');
  if (
    !Array.isArray(tables) ||
    !tables.every(
      (table: unknown) =>
        typeof table === 'object' &&
        table !== null &&
        typeof (table as TableCount).schema === 'string' &&
        typeof (table as TableCount).name === 'string' &&
        isCount((table as TableCount).rows),
    )
  ) {
    throw reader.invalid('the header has no valid list of tables');
  }
  if (typeof createdAt !== 'string' || typeof serverVersion !== 'string') {
    throw reader.invalid('the header has no createdAt or serverVersion');
  }
  return {
    format: BACKUP_FORMAT,
    formatVersion,
    createdAt,
    serverVersion,
    migrations: migrations.map((version) => BigInt(version).toString()),
    dirtyMigrations,
    schemas: isStringArray(header['schemas']) ? header['schemas'] : [...BACKUP_SCHEMAS],
    tables: (tables as TableCount[]).map(({ schema, name, rows }) => ({ schema, name, rows })),
  };
}

/** The backup's migrations as this checkout has them, oldest first; refuses unknown ones. */
export function migrationsToApply(header: BackupHeader, local: MigrationFile[]): MigrationFile[] {
  if (header.dirtyMigrations.length > 0) {
    throw new RestoreError(
      `the backup was made while migration ${header.dirtyMigrations.join(', ')} was marked dirty ` +
        '(half applied); its schema cannot be reproduced',
    );
  }
  const byVersion = new Map(local.map((migration) => [migration.version, migration]));
  const unknown = header.migrations.filter((version) => !byVersion.has(version));
  if (unknown.length > 0) {
    throw new RestoreError(
      `the backup was made at migration ${unknown.join(', ')}, which this checkout does not ` +
        'have; restore it with a checkout that has every migration of the backup',
    );
  }
  return [...new Set(header.migrations)]
    .sort(compareVersions)
    .map((version) => byVersion.get(version)!);
}
