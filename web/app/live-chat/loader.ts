/*
 * Spec section 4: "A third-party live-chat widget is loaded after the page mounts; its global is
 * polled every 300 ms until present." The script comes from PUBLIC_LIVE_CHAT_SRC (unset: no
 * widget) and defines the global PUBLIC_LIVE_CHAT_GLOBAL once it has initialised. No React here:
 * the document, the global object and the timers are given, so tests drive them by hand.
 */

/** How often the global is looked for (spec section 4). */
export const POLL_INTERVAL_MS = 300;
/** After this long without the global the widget is given up on (about 100 polls). */
export const POLL_TIMEOUT_MS = 30_000;
/** Marks the script this module added, so a remount does not add a second one. */
export const SCRIPT_MARK = 'data-live-chat';

export interface PollOptions {
  /** Where the global appears (window in the browser). */
  scope: object;
  name: string;
  onFound: (value: unknown) => void;
  onTimeout?: () => void;
  intervalMs?: number;
  timeoutMs?: number;
  timers?: {
    setInterval(callback: () => void, ms: number): unknown;
    clearInterval(handle: unknown): void;
  };
}

const defaultTimers = {
  setInterval: (callback: () => void, ms: number): unknown => setInterval(callback, ms),
  clearInterval: (handle: unknown) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/** The global's value when it is present (not undefined or null). */
export function readGlobal(scope: object, name: string): unknown {
  const value = (scope as Record<string, unknown>)[name];
  return value === undefined || value === null ? undefined : value;
}

/**
 * Looks for `scope[name]` now and then every `intervalMs` until it is there (onFound, once) or
 * `timeoutMs` has passed (onTimeout, once). Returns a function that stops looking.
 */
export function pollForGlobal(options: PollOptions): () => void {
  const timers = options.timers ?? defaultTimers;
  const intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;
  const maxPolls = Math.ceil((options.timeoutMs ?? POLL_TIMEOUT_MS) / intervalMs);
  let handle: unknown;
  let polls = 0;
  let done = false;
  const stop = () => {
    done = true;
    if (handle !== undefined) timers.clearInterval(handle);
    handle = undefined;
  };
  const look = (): boolean => {
    const value = readGlobal(options.scope, options.name);
    if (value === undefined) return false;
    stop();
    options.onFound(value);
    return true;
  };
  if (look()) return stop;
  handle = timers.setInterval(() => {
    if (done || look()) return;
    polls += 1;
    if (polls >= maxPolls) {
      stop();
      options.onTimeout?.();
    }
  }, intervalMs);
  return stop;
}

/** The part of `document` the loader uses. */
export interface ScriptHost {
  querySelector(selector: string): unknown;
  createElement(tag: 'script'): HTMLScriptElement;
  head: { appendChild(node: HTMLScriptElement): unknown };
}

/**
 * Adds `<script async src>` for the widget unless this page already has it. Returns the element
 * added, or undefined when one was there.
 */
export function addWidgetScript(document: ScriptHost, src: string): HTMLScriptElement | undefined {
  if (document.querySelector(`script[${SCRIPT_MARK}]`)) return undefined;
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  script.setAttribute(SCRIPT_MARK, '');
  document.head.appendChild(script);
  return script;
}
