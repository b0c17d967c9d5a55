import { useEffect, useState } from 'react';

import { useSession } from '#app/auth/session.ts';

import { wsClient } from './ws-client.ts';

export type SubscriptionState<T> =
  { status: 'loading' } | { status: 'live'; data: T } | { status: 'error'; code: string };

/**
 * A live query over the engine's websocket. It resubscribes when the signed-in user changes
 * (the client restarts with the new token) and when the variables change.
 */
export function useSubscription<T>(
  query: string,
  variables: Record<string, unknown>,
  enabled = true,
): SubscriptionState<T> {
  const userId = useSession((state) => state.user?.id ?? null);
  const [state, setState] = useState<SubscriptionState<T>>({ status: 'loading' });
  const key = JSON.stringify(variables);

  useEffect(() => {
    if (!enabled) return;
    setState({ status: 'loading' });
    const stop = wsClient().subscribe<T>(
      { query, variables: JSON.parse(key) as Record<string, unknown> },
      {
        next: (result) => {
          if (result.errors?.length) {
            const code = (result.errors[0]?.extensions as { code?: string } | undefined)?.code;
            setState({ status: 'error', code: code ?? 'graphql-error' });
          } else if (result.data) {
            setState({ status: 'live', data: result.data });
          }
        },
        error: (error) => {
          const code = (error as { code?: unknown } | null)?.code;
          setState({
            status: 'error',
            code: typeof code === 'number' ? `ws-${code}` : 'network-error',
          });
        },
        complete: () => {},
      },
    );
    return stop;
  }, [query, key, enabled, userId]);

  return state;
}
