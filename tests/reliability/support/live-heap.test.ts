import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { once } from 'node:events';

import { afterEach, describe, expect, it } from 'vitest';

import { liveHeapBytes } from './live-heap.ts';

/*
 * The soak's measure (decision 033) against processes whose truth is known: one that keeps what
 * it allocates (a leak) and one that only makes garbage, both started without any flag.
 */

const MB = 1024 * 1024;
const children: ChildProcess[] = [];

/** A node process running `program` (each tick: `step`), ready once it printed "ready". */
async function node(program: string): Promise<number> {
  const child = spawn(process.execPath, ['-e', `${program}; console.log('ready')`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await once(child.stdout, 'data');
  return child.pid!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

describe('live heap', () => {
  it('grows with what a process keeps, not with the garbage it makes', async () => {
    // Each tick: an array of 131,072 doubles, 1 MiB; the leak keeps them, the other drops them.
    const tick = `() => new Array(131072).fill(Math.random())`;
    const leak = await node(`const kept = []; setInterval(() => kept.push((${tick})()), 20)`);
    const garbage = await node(`let last; setInterval(() => { last = (${tick})(); }, 20)`);
    const before = { leak: await liveHeapBytes(leak), garbage: await liveHeapBytes(garbage) };
    await sleep(1500);
    const after = { leak: await liveHeapBytes(leak), garbage: await liveHeapBytes(garbage) };
    expect(after.leak - before.leak).toBeGreaterThan(20 * MB);
    expect(Math.abs(after.garbage - before.garbage)).toBeLessThan(4 * MB);
  });

  it('refuses to read anything while another process holds the inspector port', async () => {
    const pid = await node('setInterval(() => {}, 1000)');
    const squatter = createServer((_, response) => response.end('[]'));
    squatter.listen(9229, '127.0.0.1');
    await once(squatter, 'listening');
    try {
      await expect(liveHeapBytes(pid)).rejects.toThrow(/taken by another process/);
    } finally {
      squatter.close();
    }
  });
});
