import { describe, expect, it, vi } from 'vitest';

import { isChunkLoadError, reloadOnce, RELOAD_GUARD_KEY } from './chunk-errors.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe('isChunkLoadError', () => {
  it.each([
    new TypeError(
      'Failed to fetch dynamically imported module: https://exchange.example/assets/home-x1.js',
    ),
    new TypeError('error loading dynamically imported module: https://exchange.example/a.js'),
    new TypeError('Importing a module script failed.'),
    new Error('Unable to preload CSS for /assets/app-x1.css'),
    Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' }),
    'Failed to fetch dynamically imported module: /assets/x.js',
  ])('recognises %s', (error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it.each([
    new Error('Network request failed'),
    new TypeError("Cannot read properties of undefined (reading 'map')"),
    { status: 500, statusText: 'Internal Server Error', data: null },
    null,
    undefined,
    42,
  ])('leaves other errors alone: %s', (error) => {
    expect(isChunkLoadError(error)).toBe(false);
  });
});

describe('reloadOnce', () => {
  it('reloads once per build in a tab', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnce({ storage, reload, buildId: 'b1' })).toBe(true);
    expect(storage.data.get(RELOAD_GUARD_KEY)).toBe('b1');
    // The reloaded page still fails on the same build: no loop.
    expect(reloadOnce({ storage, reload, buildId: 'b1' })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // A later deployment may fail the same way once more.
    expect(reloadOnce({ storage, reload, buildId: 'b2' })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads without a working sessionStorage', () => {
    const reload = vi.fn();
    expect(reloadOnce({ storage: undefined, reload, buildId: 'b1' })).toBe(false);
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    };
    expect(reloadOnce({ storage: refusing, reload, buildId: 'b1' })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
