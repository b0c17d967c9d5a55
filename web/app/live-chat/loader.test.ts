import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  addWidgetScript,
  POLL_INTERVAL_MS,
  POLL_TIMEOUT_MS,
  pollForGlobal,
  SCRIPT_MARK,
  type ScriptHost,
} from './loader.ts';

describe('pollForGlobal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('looks every 300 ms until the global appears, then stops', () => {
    const scope: Record<string, unknown> = {};
    const onFound = vi.fn();
    const onTimeout = vi.fn();
    pollForGlobal({ scope, name: 'LiveChatWidget', onFound, onTimeout });
    expect(onFound).not.toHaveBeenCalled();
    vi.advanceTimersByTime(POLL_INTERVAL_MS * 3);
    expect(onFound).not.toHaveBeenCalled();
    const widget = { open: () => {} };
    scope['LiveChatWidget'] = widget;
    vi.advanceTimersByTime(POLL_INTERVAL_MS - 1);
    expect(onFound).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onFound).toHaveBeenCalledExactlyOnceWith(widget);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(POLL_TIMEOUT_MS);
    expect(onFound).toHaveBeenCalledTimes(1);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('reports a global that is already there at once, with no timer', () => {
    const onFound = vi.fn();
    pollForGlobal({ scope: { Chat: 0 }, name: 'Chat', onFound });
    expect(onFound).toHaveBeenCalledExactlyOnceWith(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives up after the timeout, once, and null does not count as present', () => {
    const scope: Record<string, unknown> = { LiveChatWidget: null };
    const onFound = vi.fn();
    const onTimeout = vi.fn();
    pollForGlobal({ scope, name: 'LiveChatWidget', onFound, onTimeout });
    vi.advanceTimersByTime(POLL_TIMEOUT_MS - POLL_INTERVAL_MS);
    expect(onTimeout).not.toHaveBeenCalled();
    vi.advanceTimersByTime(POLL_INTERVAL_MS);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    scope['LiveChatWidget'] = {};
    vi.advanceTimersByTime(POLL_TIMEOUT_MS);
    expect(onFound).not.toHaveBeenCalled();
  });

  it('stops when asked', () => {
    const scope: Record<string, unknown> = {};
    const onFound = vi.fn();
    const stop = pollForGlobal({ scope, name: 'LiveChatWidget', onFound, intervalMs: 300 });
    vi.advanceTimersByTime(600);
    stop();
    scope['LiveChatWidget'] = {};
    vi.advanceTimersByTime(3_000);
    expect(onFound).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('addWidgetScript', () => {
  function fakeDocument() {
    const appended: Array<Record<string, unknown>> = [];
    const host = {
      appended,
      querySelector: (selector: string) =>
        selector === `script[${SCRIPT_MARK}]`
          ? (appended.find((node) => SCRIPT_MARK in (node['attributes'] as object)) ?? null)
          : null,
      createElement: () => {
        const attributes: Record<string, string> = {};
        return {
          attributes,
          setAttribute: (name: string, value: string) => (attributes[name] = value),
        };
      },
      head: { appendChild: (node: Record<string, unknown>) => appended.push(node) },
    };
    return host as unknown as ScriptHost & { appended: typeof appended };
  }

  it('adds one async script for the widget, and no second one on a remount', () => {
    const document = fakeDocument();
    const script = addWidgetScript(document, 'https://chat.example/widget.js');
    expect(script).toMatchObject({ async: true, src: 'https://chat.example/widget.js' });
    expect(document.appended).toHaveLength(1);
    expect(addWidgetScript(document, 'https://chat.example/widget.js')).toBeUndefined();
    expect(document.appended).toHaveLength(1);
  });
});
