import { useEffect } from 'react';

import { addWidgetScript, pollForGlobal } from './loader.ts';

/*
 * The third-party live-chat widget (spec section 4), mounted once in the root route. It renders
 * nothing: after the page has mounted and loaded, when the browser is idle, it adds the widget's
 * script, then polls for the widget's global every 300 ms. The state is on <html data-live-chat>
 * (loading, ready, unavailable) for tests and support. With PUBLIC_LIVE_CHAT_SRC unset nothing
 * loads.
 */

type ChatState = 'loading' | 'ready' | 'unavailable';

const markState = (state: ChatState) => {
  document.documentElement.dataset['liveChat'] = state;
};

/** Runs `task` once the page has loaded and the browser is idle (the widget never competes). */
function whenLoadedAndIdle(task: () => void): () => void {
  // Safari has no requestIdleCallback: a second after the load event instead.
  const idleApi = window as Partial<Pick<Window, 'requestIdleCallback' | 'cancelIdleCallback'>>;
  let cancelled = false;
  let cancelIdle: (() => void) | undefined;
  const idle = () => {
    if (cancelled) return;
    if (idleApi.requestIdleCallback && idleApi.cancelIdleCallback) {
      const handle = idleApi.requestIdleCallback(task, { timeout: 3_000 });
      cancelIdle = () => idleApi.cancelIdleCallback?.(handle);
    } else {
      const handle = setTimeout(task, 1_000);
      cancelIdle = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', idle);
    cancelIdle?.();
  };
}

export function LiveChat({ src, globalName }: { src: string | undefined; globalName: string }) {
  useEffect(() => {
    if (!src) return;
    let stopPolling: (() => void) | undefined;
    const cancelLoad = whenLoadedAndIdle(() => {
      markState('loading');
      const script = addWidgetScript(document, src);
      script?.addEventListener('error', () => {
        stopPolling?.();
        markState('unavailable');
      });
      stopPolling = pollForGlobal({
        scope: window,
        name: globalName,
        onFound: () => markState('ready'),
        onTimeout: () => markState('unavailable'),
      });
    });
    return () => {
      cancelLoad();
      stopPolling?.();
    };
  }, [src, globalName]);
  return null;
}
