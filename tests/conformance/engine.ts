import { createLogger } from '@app/shared/log';

import type { Engine, EngineOptions } from '../../hasura/engine/src/engine-options.ts';
import { ENGINE_START_TIMEOUT_MS } from './config.ts';

/*
 * The engine under test, loaded lazily: `createEngine` from `@app/engine` (the package's root
 * export). While that export does not exist yet, or fails to load, the runner reports
 * "engine not available" instead of crashing.
 *
 * One engine runs at a time per group; a case whose server settings differ (a JWT config,
 * an unauthorized role) gets a new engine on the same database.
 */

export type CreateEngine = (options: EngineOptions) => Promise<Engine>;

export type EngineLoad = { ok: true; createEngine: CreateEngine } | { ok: false; reason: string };

export const ENGINE_MODULE = '@app/engine';

export async function loadEngine(specifier: string = ENGINE_MODULE): Promise<EngineLoad> {
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const detail = (error as Error).message.split('\n')[0] ?? '';
    const notExported =
      code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' ||
      /"\." is not exported|subpath '\.' is not defined/i.test(detail);
    const why = notExported
      ? `${specifier} has no root export yet (package.json "exports" lacks ".")`
      : code === 'ERR_MODULE_NOT_FOUND'
        ? `${specifier} (or a module it imports) was not found: ${detail}`
        : `${specifier} failed to load: ${detail}`;
    return { ok: false, reason: why };
  }
  const createEngine =
    typeof loaded === 'object' && loaded !== null
      ? (loaded as Record<string, unknown>)['createEngine']
      : undefined;
  if (typeof createEngine !== 'function') {
    return { ok: false, reason: `${specifier} does not export a createEngine function` };
  }
  return { ok: true, createEngine: createEngine as CreateEngine };
}

/** What the engine is started with for one case (everything but the group's database). */
export interface ServerSettings {
  adminSecret?: string | undefined;
  jwtSecret?: string | undefined;
  unauthorizedRole?: string | undefined;
  stringifyNumericTypes: boolean;
  environment: Record<string, string>;
}

export function settingsKey(settings: ServerSettings): string {
  return JSON.stringify([
    settings.adminSecret ?? null,
    settings.jwtSecret ?? null,
    settings.unauthorizedRole ?? null,
    settings.stringifyNumericTypes,
    Object.entries(settings.environment).sort(([a], [b]) => a.localeCompare(b)),
  ]);
}

export interface RunningEngine {
  url: string;
  wsUrl: string;
  settings: ServerSettings;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface EngineHostOptions {
  createEngine: CreateEngine;
  databaseUrl: string;
  metadata: unknown;
  liveQueryRefetchIntervalMs: number;
  /** pino level for the engine's own log (`silent` unless asked). */
  logLevel: string;
}

export class EngineHost {
  private current: { key: string; engine: Engine; running: RunningEngine } | undefined;
  private readonly failures = new Map<string, string>();

  constructor(private readonly options: EngineHostOptions) {}

  /** The engine for these settings: the running one, or a new one (the old one is closed). */
  async get(settings: ServerSettings): Promise<RunningEngine> {
    const key = settingsKey(settings);
    if (this.current?.key === key) return this.current.running;
    const failed = this.failures.get(key);
    if (failed) throw new Error(failed);
    await this.close();
    const options: EngineOptions = {
      databaseUrl: this.options.databaseUrl,
      metadata: { object: structuredClone(this.options.metadata) },
      adminSecret: settings.adminSecret,
      jwtSecret: settings.jwtSecret,
      unauthorizedRole: settings.unauthorizedRole,
      stringifyNumericTypes: settings.stringifyNumericTypes,
      liveQueryRefetchIntervalMs: this.options.liveQueryRefetchIntervalMs,
      environment: { ...settings.environment },
      poolSize: 5,
      // Our engine's estimate of the rows an operation may build (plan/cost.ts) is a bound of
      // our own, not Hasura's: its cases nest unbounded lists three deep on tables of a few rows.
      limits: { maxEstimatedRows: Number.MAX_SAFE_INTEGER },
      logger: createLogger('conformance-engine', { level: this.options.logLevel }),
    };
    let engine: Engine | undefined;
    try {
      engine = await withTimeout(
        this.options.createEngine(options),
        ENGINE_START_TIMEOUT_MS,
        'createEngine',
      );
      const listening = await withTimeout(
        engine.listen(0, '127.0.0.1'),
        ENGINE_START_TIMEOUT_MS,
        'listen',
      );
      const url = `http://127.0.0.1:${listening.port}`;
      const running = { url, wsUrl: `ws://127.0.0.1:${listening.port}/v1/graphql`, settings };
      this.current = { key, engine, running };
      return running;
    } catch (error) {
      const message = `engine failed to start: ${(error as Error).message}`;
      this.failures.set(key, message);
      if (engine) await withTimeout(engine.close(), 10_000, 'close').catch(() => {});
      throw new Error(message, { cause: error });
    }
  }

  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current) await withTimeout(current.engine.close(), 10_000, 'engine.close').catch(() => {});
  }
}
