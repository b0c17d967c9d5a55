import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Spawned {
  child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves when the output matches, rejects if the process exits or time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

/** Runs a TypeScript entry point with tsx, as the product's own scripts do. */
export function spawnTs(
  entry: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    listeners.forEach((listener) => listener());
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) finish(resolve);
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting for ${pattern}:\n${output}`))),
          timeoutMs,
        );
        const onExit = (code: number | null) =>
          finish(() =>
            pattern.test(output)
              ? resolve()
              : reject(new Error(`exited with ${code} before ${pattern}:\n${output}`)),
          );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
          settle();
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
  };
}
