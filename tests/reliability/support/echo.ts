import { expectJson, HttpClient, runSequential } from './load.ts';
import { spawnUntilReady, stopProcess } from './service-process.ts';

/*
 * The machine's own latency under load (issue 24). A load check's p99 at 80% of capacity
 * against its idle p99 says how the product queues only if the machine itself passes requests
 * between processes as fast under load as at rest. On two cores shared by the load generator,
 * three services, the database and the environment's own servers, it may not: every request
 * crosses several processes, each of which may wait for a core. So the check times, beside
 * each operation, an echo (a process of its own that answers at once, through the same kind of
 * client) at rest and again while the open loop runs: what the echo loses under load is the
 * machine's, not the product's.
 */

export interface EchoFigures {
  requests: number;
  p99Ms: number;
  maxMs: number;
}

export interface EchoProbe {
  /** One echo at a time, `rate` a second, for `durationS`: its p99 and worst latency. */
  measure(rate: number, durationS: number): Promise<EchoFigures>;
  close(): Promise<void>;
}

export async function startEchoProbe(): Promise<EchoProbe> {
  const { spawned: child, url } = await spawnUntilReady(
    new URL('./echo-process.ts', import.meta.url),
    /echo ready (\S+)/,
  );
  const client = new HttpClient(4);
  const ping = async () => void expectJson(await client.post(url, {}, '{}'));

  return {
    async measure(rate, durationS) {
      const run = await runSequential({ rate, durationS, task: ping });
      return {
        requests: run.requests,
        p99Ms: run.p99Ms,
        maxMs: run.maxMs,
      };
    },
    async close() {
      client.close();
      await stopProcess(child, 'SIGTERM', 5_000);
    },
  };
}
