import { useLocation, type AroundNavHandler } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';

/*
 * The app's history as Telegram's back button needs it: every entry the app pushes records how
 * many in-app screens lie behind it (in `history.state`, so a reload keeps it). Back goes back
 * when there is something behind, else to the exchange (a screen opened by a deep link).
 */

interface EntryState {
  depth: number;
}

const depthOf = (state: unknown): number => {
  const depth = (state as Partial<EntryState> | null)?.depth;
  return typeof depth === 'number' && depth > 0 ? depth : 0;
};

/** The router's navigation hook: a push is one deeper, a replace stays where it is. */
export const recordDepth: AroundNavHandler = (navigate, to, options) => {
  const depth = depthOf(window.history.state);
  navigate(to, { ...options, state: { depth: options?.replace ? depth : depth + 1 } });
};

/** How many in-app screens lie behind the current one. */
export const useDepth = (): number => depthOf(useHistoryState());

/** Back, as Telegram's back button does it. */
export function useGoBack(): () => void {
  const [, navigate] = useLocation();
  return () => {
    if (depthOf(window.history.state) > 0) window.history.back();
    else navigate('/', { replace: true });
  };
}
