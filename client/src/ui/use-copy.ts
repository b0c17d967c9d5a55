import { useCallback, useEffect, useState } from 'react';

/** How long a "Copied" confirmation stays. */
const COPIED_MS = 2000;

/**
 * Copies text to the clipboard and says so for a moment: `copied` is true for two seconds after
 * a copy that worked; `copy` resolves whether it did (a browser may refuse the clipboard).
 */
export function useCopy(): { copied: boolean; copy: (value: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = useCallback(async (value: string) => {
    try {
      if (!navigator.clipboard) return false;
      await navigator.clipboard.writeText(value);
      setCopied(true);
      return true;
    } catch {
      return false;
    }
  }, []);
  return { copied, copy };
}
