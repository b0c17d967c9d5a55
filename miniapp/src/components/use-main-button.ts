import { useEffect, useRef } from 'react';

import { showMainButton, type MainButtonState } from '../telegram/sdk.ts';

/**
 * Telegram's main button for the screen's primary action, while the screen is shown. `state`
 * updates the button in place; `onClick` is always the latest one. `null` hides it.
 */
export function useMainButton(state: MainButtonState | null, onClick: () => void): void {
  const latest = useRef(onClick);
  latest.current = onClick;
  const text = state?.text;
  const enabled = state?.enabled ?? false;
  const loading = state?.loading ?? false;
  useEffect(() => {
    if (text === undefined) return;
    return showMainButton({ text, enabled, loading }, () => latest.current());
  }, [text, enabled, loading]);
}
