import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/*
 * The candidates run in processes of their own (so the load generator, in this process, does
 * not share their event loop) and answer a small IPC protocol: `ready` with their URL once
 * listening, then `{id, type}` requests (stats, stop, ...).
 */

export interface ChildStats {
  statements: number;
  statementKinds?: Record<string, number>;
  cpuUserUs: number;
  cpuSystemUs: number;
  rssBytes: number;
  maxRssBytes: number;
  liveQuery?: {
    cohorts: number;
    variableSets: number;
    subscribers: number;
    statements: number;
    failedStatements: number;
    polls: number;
    skippedPolls: number;
    pushes: number;
  };
}

const START_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 120_000;
const STDERR_TAIL = 8_000;

export class ChildServer {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private stderr = '';
  private exited = false;
  url = '';

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('message', (raw: unknown) => {
      const message = raw as { id?: number; ok?: boolean; result?: unknown; error?: string };
      if (message.id === undefined) return;
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      clearTimeout(waiter.timer);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(`${this.name}: ${message.error ?? 'failed'}`));
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      for (const waiter of this.pending.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`${this.name} exited (${code ?? signal})\n${this.stderrTail()}`));
      }
      this.pending.clear();
    });
  }

  /** Starts `file` (TypeScript through tsx, or plain node) and waits for its `ready`. */
  static async start(
    name: string,
    file: URL,
    options: { env: Record<string, string>; typescript: boolean; cwd?: string },
  ): Promise<ChildServer> {
    const child = fork(fileURLToPath(file), [], {
      execArgv: options.typescript ? ['--import', import.meta.resolve('tsx')] : [],
      env: { ...process.env, ...options.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    const server = new ChildServer(name, child);
    server.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(`${name} did not start within ${START_TIMEOUT_MS} ms\n${server.stderrTail()}`),
        );
      }, START_TIMEOUT_MS);
      child.on('message', (message: { type?: string; url?: string }) => {
        if (message.type === 'ready' && message.url) {
          clearTimeout(timer);
          resolve(message.url);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(`${name} exited during start-up (${code ?? signal})\n${server.stderrTail()}`),
        );
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return server;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  stderrTail(): string {
    return this.stderr.trim();
  }

  request<T>(
    type: string,
    payload: Record<string, unknown> = {},
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<T> {
    if (this.exited)
      return Promise.reject(new Error(`${this.name} is not running\n${this.stderrTail()}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name}: no answer to ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.child.send({ id, type, ...payload });
    });
  }

  stats(): Promise<ChildStats> {
    return this.request<ChildStats>('stats', {}, 10_000);
  }

  /** Asks the process to stop, then kills it if it has not exited within 10 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.request('stop', {}, 5_000).catch(() => {});
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
