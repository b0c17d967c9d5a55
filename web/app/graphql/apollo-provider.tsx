import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useState, type ReactNode } from 'react';

import { onAuthChange } from '#app/auth/session.ts';

import { createApolloClient } from './apollo-client.ts';

/**
 * Apollo Client for the data pages. Signing in or out replaces the client (spec section 7:
 * cache reset and subscription restart), so nothing of one session is shown to the next.
 */
export function SessionApolloProvider({ children }: { children: ReactNode }) {
  const [client, setClient] = useState(createApolloClient);

  useEffect(
    () =>
      onAuthChange((event) => {
        if (event.type === 'refresh' || !event.resetCache) return;
        setClient(createApolloClient());
      }),
    [],
  );
  // The replaced (or unmounted) client stops its queries and subscriptions.
  useEffect(() => () => client.stop(), [client]);

  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}
