import { useEffect, useRef } from 'react';

import { setMainButton, showMainButton, type MainButtonState } from '../telegram/sdk.ts';

/**
 * Telegram's main button for the screen's primary action, while the screen is shown. `state`
 * updates the button in place (text, enabled, loading) without hiding it, so it never flickers
 * as the person types; `onClick` is always the latest one. `null` hides it.
 */
export function useMainButton(state: MainButtonState | null, onClick: () => void): void {
  const latest = useRef(onClick);
  latest.current = onClick;
  const text = state?.text;
  const enabled = state?.enabled ?? false;
  const loading = state?.loading ?? false;
  const shown = text !== undefined;
  // First the state, then (on the first render that has one) the button itself.
  useEffect(() => {
    if (text !== undefined) setMainButton({ text, enabled, loading });
  }, [text, enabled, loading]);
  useEffect(() => {
    if (!shown) return;
    return showMainButton(() => latest.current());
  }, [shown]);
}
