import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

import { describe, expect, it } from 'vitest';

import { lowPriorityModulePreloads } from './script-priority.server.ts';

/** The HTML after the transform, fed in the given chunks. */
async function transformed(chunks: string[]): Promise<string> {
  return text(
    Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(lowPriorityModulePreloads()),
  );
}

const HTML =
  '<head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/x.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/y.js"/></head><body><p>Привет, link rel="modulepreload"</p></body>';
const EXPECTED =
  '<head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" fetchpriority="low" href="/x.js" nonce="n"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/y.js"/></head><body><p>Привет, link rel="modulepreload"</p></body>';

describe('lowPriorityModulePreloads', () => {
  it('puts every modulepreload link at low priority and leaves the rest alone', async () => {
    expect(await transformed([HTML])).toBe(EXPECTED);
  });

  it('finds a tag split across chunks at any byte, multi-byte text included', async () => {
    const bytes = Buffer.from(HTML);
    for (let cut = 1; cut < bytes.length; cut++) {
      const output = await text(
        Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(
          lowPriorityModulePreloads(),
        ),
      );
      expect(output, `cut at ${cut}`).toBe(EXPECTED);
    }
  });

  it('passes a page without scripts through unchanged', async () => {
    expect(await transformed(['<p>', 'no scripts', '</p><link rel="module'])).toBe(
      '<p>no scripts</p><link rel="module',
    );
  });
});
