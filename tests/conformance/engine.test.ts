import { describe, expect, it } from 'vitest';

import { loadEngine, settingsKey } from './engine.ts';

describe('loadEngine', () => {
  it('reports a missing module instead of throwing', async () => {
    const result = await loadEngine('@app/no-such-engine');
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^@app\/no-such-engine .*not found/) as unknown,
    });
  });

  it('reports a package without a root export', async () => {
    const result = await loadEngine('@app/shared');
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/no root export yet/) as unknown,
    });
  });

  it('reports a module without createEngine', async () => {
    const result = await loadEngine('node:path');
    expect(result).toEqual({
      ok: false,
      reason: 'node:path does not export a createEngine function',
    });
  });
});

describe('settingsKey', () => {
  it('ignores environment order and tells configurations apart', () => {
    const base = { stringifyNumericTypes: true, environment: { A: '1', B: '2' } };
    expect(settingsKey(base)).toBe(settingsKey({ ...base, environment: { B: '2', A: '1' } }));
    expect(settingsKey(base)).not.toBe(settingsKey({ ...base, jwtSecret: '{}' }));
  });
});
