import pg from 'pg';

/*
 * What every candidate process shares: a count of the statements its node-postgres clients
 * send (client side, to check "one statement per operation"), resource usage, and the IPC
 * conversation with the orchestrator (ready → requests → stop).
 */

let statements = 0;
/** Statements by the start of their text (bounded), to tell what a process sends. */
const kinds = new Map<string, number>();
const MAX_KINDS = 40;

function kindOf(args: unknown[]): string {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
  const key = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 60) : '(config)';
  return kinds.has(key) || kinds.size < MAX_KINDS ? key : '(other)';
}

/** Counts every Client#query of this process's `pg` (pool queries go through it too). */
export function countStatements(): void {
  const prototype = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
    __benchCounted?: boolean;
  };
  if (prototype.__benchCounted) return;
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    const kind = kindOf(args);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    return original.apply(this, args);
  };
  prototype.__benchCounted = true;
}

export interface ProcessStats {
  statements: number;
  statementKinds: Record<string, number>;
  cpuUserUs: number;
  cpuSystemUs: number;
  rssBytes: number;
  maxRssBytes: number;
  [key: string]: unknown;
}

export function processStats(): ProcessStats {
  const cpu = process.cpuUsage();
  return {
    statements,
    statementKinds: Object.fromEntries(kinds),
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    rssBytes: process.memoryUsage.rss(),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

export type Handler = (message: Record<string, unknown>) => Promise<unknown>;

/**
 * Answers the orchestrator: `{id, type}` → `{id, ok, result | error}`. `stats` and `stop` are
 * built in; other types go to `handlers`.
 */
export function serveIpc(
  handlers: Record<string, Handler>,
  stop: () => Promise<void>,
  extraStats?: () => Record<string, unknown>,
): void {
  const send = (message: unknown) => {
    if (process.connected) process.send?.(message);
  };
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await stop().catch(() => {});
    process.exit(0);
  };
  process.on('disconnect', () => void shutdown());
  process.on('message', (raw: unknown) => {
    const message = raw as { id?: number; type?: string } & Record<string, unknown>;
    const id = message.id;
    void (async () => {
      try {
        if (message.type === 'stop') {
          send({ id, ok: true, result: null });
          await shutdown();
          return;
        }
        if (message.type === 'stats') {
          send({ id, ok: true, result: { ...processStats(), ...(extraStats?.() ?? {}) } });
          return;
        }
        const handler = message.type ? handlers[message.type] : undefined;
        if (!handler) throw new Error(`unknown message type ${String(message.type)}`);
        send({ id, ok: true, result: await handler(message) });
      } catch (error) {
        send({
          id,
          ok: false,
          error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error),
        });
      }
    })();
  });
}

export function announceReady(url: string, details: Record<string, unknown> = {}): void {
  process.send?.({ type: 'ready', url, ...details });
}

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
