import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/*
 * `--profile`: a V8 CPU profile of a benchmark process, written when it stops to the file
 * named by BENCH_CPU_PROFILE (open it in Chrome DevTools or speedscope). Without the variable
 * nothing is recorded.
 */
export async function startCpuProfile(): Promise<() => Promise<void>> {
  const file = process.env['BENCH_CPU_PROFILE'];
  if (!file) return () => Promise.resolve();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}
