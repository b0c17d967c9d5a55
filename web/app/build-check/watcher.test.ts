import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  CHECK_INTERVAL_MS,
  createBuildWatcher,
  fetchBuildId,
  MIN_FOCUS_GAP_MS,
} from './watcher.ts';

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    }),
  );

describe('fetchBuildId', () => {
  it('reads { buildId } from /build.json, uncached', async () => {
    const fetchImpl = vi.fn((_url: string, _init?: RequestInit) => json({ buildId: 'b2' }));
    await expect(fetchBuildId(fetchImpl)).resolves.toBe('b2');
    expect(fetchImpl).toHaveBeenCalledWith(
      '/build.json',
      expect.objectContaining({ cache: 'no-store' }),
    );
  });

  it('gives undefined for failures and junk instead of throwing', async () => {
    await expect(fetchBuildId(() => json({ buildId: 'b2' }, 503))).resolves.toBeUndefined();
    await expect(fetchBuildId(() => json({ build: 'b2' }))).resolves.toBeUndefined();
    await expect(fetchBuildId(() => json({ buildId: '' }))).resolves.toBeUndefined();
    await expect(fetchBuildId(() => json(null))).resolves.toBeUndefined();
    await expect(
      fetchBuildId(() => Promise.resolve(new Response('<html>', { status: 200 }))),
    ).resolves.toBeUndefined();
    await expect(
      fetchBuildId(() => Promise.reject(new TypeError('Failed to fetch'))),
    ).resolves.toBeUndefined();
  });
});

describe('createBuildWatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(ids: Array<string | undefined>) {
    const deployed = [...ids];
    const readBuildId = vi.fn(() =>
      Promise.resolve(deployed.length > 1 ? deployed.shift() : deployed[0]),
    );
    const onNewBuild = vi.fn();
    const watcher = createBuildWatcher({ currentId: 'b1', readBuildId, onNewBuild });
    return { watcher, readBuildId, onNewBuild };
  }

  it('asks every five minutes and reports the first id that differs, once', async () => {
    const { watcher, readBuildId, onNewBuild } = setup(['b1', undefined, 'b2', 'b3']);
    watcher.start();
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS - 1);
    expect(readBuildId).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(readBuildId).toHaveBeenCalledTimes(1);
    expect(onNewBuild).not.toHaveBeenCalled();
    // An unreadable answer (offline) reports nothing.
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS);
    expect(onNewBuild).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS);
    expect(onNewBuild).toHaveBeenCalledExactlyOnceWith('b2');
    // Then it stops asking.
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 3);
    expect(readBuildId).toHaveBeenCalledTimes(3);
    expect(onNewBuild).toHaveBeenCalledTimes(1);
    await expect(watcher.check()).resolves.toBe(true);
  });

  it('asks when the tab comes back, but not again within the focus gap', async () => {
    const { watcher, readBuildId, onNewBuild } = setup(['b1', 'b1', 'b2']);
    watcher.start();
    await expect(watcher.focused()).resolves.toBe(false);
    expect(readBuildId).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(MIN_FOCUS_GAP_MS - 1);
    await expect(watcher.focused()).resolves.toBe(false);
    expect(readBuildId).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await watcher.focused();
    expect(readBuildId).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(MIN_FOCUS_GAP_MS);
    await expect(watcher.focused()).resolves.toBe(true);
    expect(onNewBuild).toHaveBeenCalledExactlyOnceWith('b2');
  });

  it('shares a check in flight and stops polling on stop()', async () => {
    const { watcher, readBuildId } = setup(['b1']);
    const first = watcher.check();
    const second = watcher.check();
    await Promise.all([first, second]);
    expect(readBuildId).toHaveBeenCalledTimes(1);
    watcher.start();
    watcher.start();
    watcher.stop();
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS * 2);
    expect(readBuildId).toHaveBeenCalledTimes(1);
  });
});
